/** The one stylesheet (served at /assets/site.css; a strict CSP allows no inline style). */
export const STYLESHEET = `:root {
  --text: #1d232b;
  --muted: #4a5562;
  --accent: #0b5cad;
  --accent-dark: #083f78;
  --bg: #ffffff;
  --panel: #f3f5f8;
  --border: #cfd6df;
  --warn-bg: #fff4e0;
  --warn-border: #b86e00;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  line-height: 1.55;
  color: var(--text);
  background: var(--bg);
}
* { box-sizing: border-box; }
body { margin: 0; }
.wrap { max-width: 60rem; margin: 0 auto; padding: 0 1rem; }
a { color: var(--accent); }
a:hover { color: var(--accent-dark); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid #f2a900; outline-offset: 2px; }
h1, h2, h3 { line-height: 1.25; }
h1 { font-size: 1.9rem; margin: 1.5rem 0 0.75rem; }
h2 { font-size: 1.4rem; margin-top: 2rem; }
h3 { font-size: 1.1rem; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.92em; }
code { background: var(--panel); padding: 0.1em 0.3em; border-radius: 3px; }
pre { background: var(--panel); padding: 0.8rem; overflow-x: auto; border-radius: 4px; }
pre code { background: none; padding: 0; }
table { border-collapse: collapse; width: 100%; margin: 1rem 0; display: block; overflow-x: auto; }
th, td { border: 1px solid var(--border); padding: 0.4rem 0.6rem; text-align: left; vertical-align: top; }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.skip-link { position: absolute; left: -999px; top: 0; background: var(--bg); padding: 0.5rem 1rem; z-index: 10; }
.skip-link:focus { left: 0.5rem; }
main:focus { outline: none; }
.site-header { background: var(--accent-dark); color: #fff; }
.site-header .wrap { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 0.5rem 1.5rem; padding-top: 0.75rem; padding-bottom: 0.75rem; }
.site-header a { color: #fff; }
.agent-links { flex-basis: 100%; margin: 0; font-size: 0.85rem; }
.site-name { font-weight: 700; font-size: 1.15rem; text-decoration: none; }
.site-header ul { list-style: none; display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; margin: 0; padding: 0; }
.site-header a[aria-current="page"] { text-decoration-thickness: 3px; }
.site-footer { margin-top: 3rem; border-top: 1px solid var(--border); background: var(--panel); color: var(--muted); font-size: 0.95rem; padding: 1rem 0; }
.site-footer a { color: var(--accent-dark); }
.lead { font-size: 1.15rem; color: var(--muted); }
.cards { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); gap: 1rem; }
.card { border: 1px solid var(--border); border-radius: 6px; padding: 1rem; background: var(--bg); }
.card h3 { margin-top: 0; }
.card p { margin: 0.4rem 0; }
.meta { color: var(--muted); font-size: 0.95rem; }
.button { display: inline-block; background: var(--accent); color: #fff; padding: 0.6rem 1.1rem; border-radius: 4px; text-decoration: none; font-weight: 600; border: 0; font-size: 1rem; cursor: pointer; }
.button:hover { background: var(--accent-dark); color: #fff; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.3rem 1rem; }
.facts dt { font-weight: 600; }
.facts dd { margin: 0; }
.search-form { background: var(--panel); border: 1px solid var(--border); border-radius: 6px; padding: 1rem; display: grid; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); gap: 0.75rem 1rem; align-items: end; }
.search-form label { display: block; font-weight: 600; margin-bottom: 0.25rem; }
.search-form input, .search-form select { width: 100%; padding: 0.5rem; font-size: 1rem; border: 1px solid #6b7683; border-radius: 4px; background: var(--bg); color: var(--text); }
.hint { display: block; color: var(--muted); font-size: 0.85rem; font-weight: 400; }
.notice { border-left: 5px solid var(--warn-border); background: var(--warn-bg); padding: 0.75rem 1rem; margin: 1rem 0; }
.notice h2 { margin-top: 0; font-size: 1.15rem; }
.untrusted { border: 1px dashed var(--border); border-radius: 6px; padding: 0 1rem; background: var(--panel); }
.untrusted .label { font-size: 0.9rem; color: var(--muted); }
.plain-text { white-space: pre-line; overflow-wrap: anywhere; }
.pager { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: center; justify-content: space-between; margin: 1.5rem 0; }
.pager ol { list-style: none; display: flex; flex-wrap: wrap; gap: 0.25rem; padding: 0; margin: 0; }
.pager li a, .pager li span { display: inline-block; min-width: 2.75rem; min-height: 2.75rem; padding: 0.55rem 0.5rem; text-align: center; }
.pager [aria-current="page"] { font-weight: 700; border: 1px solid var(--border); border-radius: 4px; }
.card .quote { font-weight: 600; }
.browse-columns { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: 1rem; }
.browse { padding-left: 1.2rem; }
.steps li, .faq dd { margin-bottom: 0.5rem; }
.faq dt { font-weight: 600; margin-top: 1rem; }
.faq dd { margin-left: 0; }
@media (max-width: 30rem) {
  h1 { font-size: 1.5rem; }
  .facts { grid-template-columns: 1fr; }
}
`;
