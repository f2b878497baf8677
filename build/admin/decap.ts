/**
 * What this folder uses of Decap CMS's browser API (decap-cms's bundle sets these globals before
 * build/admin/main.ts runs): the registry, and React's createElement and create-react-class,
 * which the bundle carries, so that widgets and previews need no React of their own.
 */

/** An Immutable.js collection, as Decap hands entries and values out. */
export interface Immutable {
  get(key: string): unknown;
  getIn(path: readonly string[]): unknown;
  set(key: string, value: unknown): Immutable;
  toJS(): unknown;
}

/** React's createElement. */
type CreateElement = (type: unknown, props?: Record<string, unknown> | null, ...children: unknown[]) => unknown;

/** A component made by create-react-class, as its methods see it. */
export interface Component<P> {
  readonly props: P;
  readonly state: Record<string, unknown>;
  setState(state: Record<string, unknown>): void;
}

export interface WidgetProps {
  readonly value: unknown;
  readonly onChange: (value: unknown) => void;
  readonly field: Immutable;
  readonly forID: string;
  readonly classNameWrapper: string;
  readonly setActiveStyle: () => void;
  readonly setInactiveStyle: () => void;
  /** The entry as the store holds it now (the `entry` prop can be stale). */
  readonly getEntry: () => Immutable;
}

export interface PreviewProps {
  readonly entry: Immutable;
  /** The preview frame's document. */
  readonly document: Document;
}

export interface Formatter {
  fromFile(text: string): Record<string, unknown>;
  toFile(data: Record<string, unknown>): string;
}

interface Cms {
  registerPreviewTemplate(collection: string, component: unknown): void;
  /** A stylesheet the preview frame loads. */
  registerPreviewStyle(href: string): void;
  registerWidget(name: string, control: unknown): void;
  registerCustomFormat(name: string, extension: string, formatter: Formatter): void;
  registerEventListener(listener: { name: "preSave"; handler: (event: { entry: Immutable }) => Promise<Immutable | undefined> }): void;
}

declare global {
  interface Window {
    CMS: Cms;
    h: CreateElement;
    createClass: (spec: object) => unknown;
  }
}

/** A component of create-react-class, whose methods are bound to it: `component<Props>()({ render() {…}, … })`. */
export function component<P>(): <M>(spec: M & ThisType<Component<P> & M>) => unknown {
  return (spec) => window.createClass(spec as object);
}
