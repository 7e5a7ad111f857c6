// Templates of orchestration actions (extractions, annotate, incident custom field values, webhook
// parameters): `{{variables.hostname}}`, `{{event.severity}}:{{event.summary}}`, `{{cache_var.x}}`.
// Each `{{path}}` is a PCL path; a path that does not exist, or one that is not a path, renders as
// nothing and is named in the warnings the trace shows.
import { asText, resolvePath } from "./conditions";
import { PclError } from "./pcl-ast";
import { parsePath } from "./pcl";

const PLACEHOLDER = /\{\{\s*(.*?)\s*\}\}/g;

export interface Rendered {
  text: string;
  warnings: string[];
}

export function renderTemplate(template: string, root: (name: string) => unknown): Rendered {
  const warnings: string[] = [];
  const text = template.replace(PLACEHOLDER, (_all, inner: string) => {
    try {
      const r = resolvePath(root, parsePath(inner));
      if (!r.found) warnings.push(`{{${inner}}} does not exist (rendered as nothing)`);
      return r.found && r.value !== null ? asText(r.value) : "";
    } catch (e) {
      if (!(e instanceof PclError)) throw e;
      warnings.push(`{{${inner}}} is not a path: ${e.message}`);
      return "";
    }
  });
  return { text, warnings };
}

/** The roots and names a template reads, e.g. `cache_var.count` gives ["cache_var", "count"]. */
export function templateRefs(template: string): { root: string; first?: string | number }[] {
  const out: { root: string; first?: string | number }[] = [];
  for (const m of template.matchAll(PLACEHOLDER)) {
    try {
      const p = parsePath(m[1]);
      out.push({ root: p.root, first: p.elements[0] });
    } catch {
      // Not a path: rendered as nothing, and said so, when the event comes.
    }
  }
  return out;
}
