// The e2e check that bad input stops at `pulumi preview`: shared by the files that feed it.
import type { PulumiProject } from "./harness";

/**
 * Sets the program to `source` and expects its preview to fail with `pattern`, without a Go map
 * dump of the inputs, and an `up` to fail too having created nothing (`services` counts what the
 * test would see created). Returns the preview's output.
 */
export async function failsAtPreview(project: PulumiProject, services: () => Promise<number>, source: string, pattern: RegExp): Promise<string> {
  project.setProgram(source);
  const preview = project.run(["preview"]);
  const out = preview.stdout + preview.stderr;
  expect(preview.code).not.toBe(0);
  expect(out).toMatch(pattern);
  expect(out).not.toMatch(/map\[/);
  const up = project.run(["up", "--yes"]);
  expect(up.code).not.toBe(0);
  expect(await services()).toBe(0);
  return out;
}
