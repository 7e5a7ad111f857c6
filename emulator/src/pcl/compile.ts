// An orchestration made ready to run: every condition parsed, every path of a variable or an
// extraction parsed, once per write of the orchestration (its `version`) rather than per event.
// A condition that does not parse (a rule the rules conversion wrote, or one from a data file) is
// kept with its error: the rule cannot match, and the trace names the expression.
import { PclError, type PathNode, type PclNode } from "./pcl-ast";
import { parsePath, parsePcl } from "./pcl";

/** A rule as an orchestration holds it (kinds/orchestration/ keeps them: this floor knows only their shape). */
export interface RuleSource {
  id: string;
  label?: string;
  conditions: { expression: string }[];
  actions: Record<string, unknown>;
  disabled: boolean;
}

/** An orchestration's sets and catch-all, and its version (a write makes a new one). */
export interface ProgramSource {
  sets: { id: string; rules: RuleSource[] }[];
  catch_all: { actions: Record<string, unknown> };
  version: number;
}

export interface CompiledCondition {
  expression: string;
  node?: PclNode;
  error?: PclError;
}

/** A parsed path, or why it does not parse. */
export type CompiledPath = PathNode | PclError;

export interface CompiledActions {
  actions: Record<string, unknown>;
  /** Parsed `path` of each of `actions.variables`, and `source`/`target` of each of `actions.extractions`, by index. */
  variablePaths: CompiledPath[];
  extractionPaths: { source?: CompiledPath; target: CompiledPath }[];
}

export interface CompiledRule extends CompiledActions {
  rule: RuleSource;
  conditions: CompiledCondition[];
}

export interface Program {
  version: number;
  sets: Map<string, CompiledRule[]>;
  catchAll: CompiledActions;
}

export function compileCondition(expression: string): CompiledCondition {
  try {
    return { expression, node: parsePcl(expression) };
  } catch (e) {
    if (e instanceof PclError) return { expression, error: e };
    throw e;
  }
}

function compilePath(text: unknown): CompiledPath {
  try {
    return parsePath(String(text ?? ""));
  } catch (e) {
    if (e instanceof PclError) return e;
    throw e;
  }
}

type Json = Record<string, unknown>;

function compileActions(actions: Json): CompiledActions {
  const list = (k: string) => (Array.isArray(actions[k]) ? (actions[k] as Json[]) : []);
  return {
    actions,
    variablePaths: list("variables").map((v) => compilePath(v.path)),
    extractionPaths: list("extractions").map((x) => ({
      target: compilePath(x.target),
      ...(x.template === undefined ? { source: compilePath(x.source) } : {}),
    })),
  };
}

const programs = new WeakMap<ProgramSource, Program>();

/** The compiled form of `o`, made again only after a write changed its version. */
export function programOf(o: ProgramSource): Program {
  const hit = programs.get(o);
  if (hit && hit.version === o.version) return hit;
  const program: Program = {
    version: o.version,
    sets: new Map(
      o.sets.map((s) => [
        s.id,
        s.rules.map((rule) => ({ rule, conditions: rule.conditions.map((c) => compileCondition(c.expression)), ...compileActions(rule.actions) })),
      ]),
    ),
    catchAll: compileActions(o.catch_all.actions),
  };
  programs.set(o, program);
  return program;
}

interface CompiledCacheVariable {
  conditions: CompiledCondition[];
  source: CompiledPath;
  /** What it was made from: an update assigns new ones. */
  from: [unknown, unknown];
}

/** What of a cache variable (kinds/cache-variable/model.ts) is compiled. */
interface CacheVariableSource {
  conditions: { expression: string }[];
  configuration: Record<string, unknown>;
}

const variables = new WeakMap<CacheVariableSource, CompiledCacheVariable>();

/** A cache variable's parsed conditions and source, made again after an update replaced them. */
export function compiledCacheVariable(c: CacheVariableSource): CompiledCacheVariable {
  const hit = variables.get(c);
  if (hit && hit.from[0] === c.conditions && hit.from[1] === c.configuration) return hit;
  const made = {
    conditions: c.conditions.map((x) => compileCondition(x.expression)),
    source: compilePath(c.configuration.source),
    from: [c.conditions, c.configuration] as [unknown, unknown],
  };
  variables.set(c, made);
  return made;
}
