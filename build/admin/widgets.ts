/**
 * The form's own widgets, for what Decap's do not edit: a mapping of any keys (a listing's
 * `private`), and a listing's category, which services.yml sets from its service.
 */
import { parse, stringify } from "yaml";
import { component, type Immutable, type WidgetProps } from "./decap.ts";
import { CATEGORY_WIDGET, MAPPING_WIDGET } from "./names.ts";

/** A value as plain data: Decap hands out what it read as Immutable.js collections, and what a widget set as it was set. */
export function plain(value: unknown): unknown {
  return typeof (value as Immutable | null)?.toJS === "function" ? (value as Immutable).toJS() : value;
}

/** The text a mapping is edited as: its YAML, or nothing for none. */
function mappingText(value: unknown): string {
  const mapping = plain(value);
  return mapping === null || mapping === undefined ? "" : stringify(mapping, { version: "1.1", lineWidth: 0 });
}

/** The text's mapping (null for blank text), or why it is not one. */
function readMapping(text: string): { value: Record<string, unknown> | null } | { error: string } {
  if (text.trim() === "") return { value: null };
  let value: unknown;
  try {
    value = parse(text, { version: "1.1" });
  } catch (error) {
    return { error: `is not YAML: ${(error instanceof Error ? error.message : String(error)).split("\n")[0]}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { error: "must be lines of key: value" };
  return { value: value as Record<string, unknown> };
}

function mappingControl(): unknown {
  return component<WidgetProps>()({
    getInitialState() {
      return { text: mappingText(this.props.value) };
    },
    handleChange(event: { target: { value: string } }) {
      const text = event.target.value;
      this.setState({ text });
      const read = readMapping(text);
      if ("value" in read) this.props.onChange(read.value);
    },
    /** Decap asks before it saves: text that is no mapping stops the save, saying why. */
    isValid() {
      const read = readMapping(this.state.text as string);
      return "error" in read ? { error: { message: `${this.props.field.get("label") as string} ${read.error}.` } } : true;
    },
    render() {
      return window.h("textarea", {
        id: this.props.forID,
        className: this.props.classNameWrapper,
        value: this.state.text,
        rows: 5,
        spellCheck: false,
        onChange: this.handleChange,
        onFocus: this.props.setActiveStyle,
        onBlur: this.props.setInactiveStyle,
      });
    },
  });
}

/**
 * The category services.yml gives the service chosen; free text for a service it gives none. The
 * store tells a widget nothing of another field's change, so the widget looks again after each
 * click or key in the page, and when Decap checks the form before a save.
 */
function categoryControl(): unknown {
  return component<WidgetProps>()({
    componentDidMount() {
      for (const type of ["click", "keyup"]) document.addEventListener(type, this.follow);
      this.follow();
    },
    componentWillUnmount() {
      for (const type of ["click", "keyup"]) document.removeEventListener(type, this.follow);
    },
    /** The category services.yml gives the entry's service, if it gives one. */
    given(): string | undefined {
      const categories = plain(this.props.field.get("categories")) as Record<string, string> | undefined;
      const service = this.props.getEntry().getIn(["data", this.props.field.get("service_field") as string]);
      return typeof service === "string" ? categories?.[service] : undefined;
    },
    follow() {
      const given = this.given();
      if (given !== undefined && given !== this.props.value) this.props.onChange(given);
    },
    getValidateValue() {
      this.follow();
      return this.given() ?? this.props.value;
    },
    render() {
      const given = this.given();
      return window.h("input", {
        id: this.props.forID,
        className: this.props.classNameWrapper,
        type: "text",
        value: given ?? this.props.value ?? "",
        readOnly: given !== undefined,
        title: given === undefined ? undefined : "Set by services.yml for the service chosen",
        onChange: (event: { target: { value: string } }) => this.props.onChange(event.target.value),
        onFocus: this.props.setActiveStyle,
        onBlur: this.props.setInactiveStyle,
      });
    },
  });
}

export function registerWidgets(): void {
  window.CMS.registerWidget(MAPPING_WIDGET, mappingControl());
  window.CMS.registerWidget(CATEGORY_WIDGET, categoryControl());
}
