// The inputs a read hands back (kernel/declared.ts through the factory): what the program declared,
// with the live values, so `ignoreChanges` holds after a refresh and an update names the drifted field.
import { z } from "zod";
import { AccountContext } from "../../../../provider/account/context";
import { PagerDutyError } from "../../../../provider/errors";
import type { ApiClient } from "../../../../provider/http/client";
import { cutTo, DECLARED, shapeOf } from "../../../../provider/kernel/declared";
import { defineResource } from "../../../../provider/kernel/define";
import { makeProvider, type Resource } from "../../../../provider/operations/factory";

/** What the fake service holds, by id. */
const live = new Map<string, Record<string, unknown>>();

const thing: Resource = {
  definition: defineResource({
    kind: "Thing",
    description: "a test resource",
    notes: "",
    inputs: z.object({
      name: z.string(),
      description: z.string().optional(),
      limits: z.object({ soft: z.number().optional(), hard: z.number().optional() }).optional(),
      steps: z.array(z.object({ at: z.number() })).optional(),
      adoptId: z.string().optional(),
    }),
    outputs: z.object({
      name: z.string(),
      description: z.string(),
      limits: z.object({ soft: z.number(), hard: z.number(), burst: z.number() }).nullable(),
      steps: z.array(z.object({ at: z.number(), by: z.string() })),
      createdAt: z.string(),
    }),
    replaceOn: [],
    diffIgnore: ["adoptId"],
    creates: true,
  }),
  subject: (id) => `thing ${id}`,
  async create(_ctx, news) {
    const outs = { description: "", limits: null, steps: [], ...news, createdAt: "t0" } as Record<string, unknown>;
    delete outs.adoptId;
    delete outs.__origin;
    live.set("T1", outs);
    return { id: "T1", outs };
  },
  async read(_ctx, id) {
    const outs = live.get(id);
    if (!outs) throw new PagerDutyError("ERR_NOT_FOUND", "404");
    return { id, props: { ...outs } };
  },
  async update(_ctx, id, _olds, news) {
    const outs = { ...live.get(id)!, ...news };
    delete outs.adoptId;
    live.set(id, outs);
    return { outs };
  },
  async delete(_ctx, id) {
    live.delete(id);
  },
};

const ctx = new AccountContext({ client: { missingScopes: async () => [] } as unknown as ApiClient });
const p = makeProvider(thing, () => ctx);

beforeEach(() => live.clear());

test("a read returns the declared inputs with their live values, and keeps the record in the outputs", async () => {
  const declared = { name: "a", description: "from the program", limits: { soft: 1 }, adoptId: "T1", __origin: "o1", account: "eu" };
  const made = await p.create(declared);
  // No output mirrors adoptId or __origin: the outputs keep them under their own names.
  expect(made.outs).toMatchObject({
    [DECLARED]: "name,description,limits{soft},adoptId",
    adoptId: "T1",
    __origin: "o1",
    account: "eu",
  });

  // Out of band: the description is edited, the server fills in its limits.
  live.set("T1", { ...live.get("T1")!, description: "edited by hand", limits: { soft: 1, hard: 9, burst: 3 } });
  const read = await p.read("T1", made.outs!);
  expect(read.inputs).toEqual({ name: "a", description: "edited by hand", limits: { soft: 1 }, adoptId: "T1", __origin: "o1", account: "eu" });
  // The next read finds the record again.
  expect(read.props).toMatchObject({ [DECLARED]: made.outs![DECLARED], adoptId: "T1", __origin: "o1", account: "eu", description: "edited by hand" });
  expect((await p.read("T1", read.props!)).inputs).toEqual(read.inputs);
});

test("a record a state holds as a tree (written before the text) is read, and written back as text", async () => {
  live.set("T1", { name: "a", description: "edited by hand", limits: { soft: 1, hard: 9, burst: 3 }, steps: [], createdAt: "t0" });
  const state = { ...live.get("T1")!, [DECLARED]: { name: true, description: true, limits: { soft: true } } };
  const read = await p.read("T1", state);
  expect(read.inputs).toEqual({ name: "a", description: "edited by hand", limits: { soft: 1 } });
  expect(read.props![DECLARED]).toBe("name,description,limits{soft}");
});

test("a damaged record is no record: the engine keeps the old inputs", async () => {
  live.set("T1", { name: "a", description: "", limits: null, steps: [], createdAt: "t0" });
  const read = await p.read("T1", { ...live.get("T1")!, [DECLARED]: "name,limits{soft" });
  expect(read.id).toBe("T1");
  expect(read).not.toHaveProperty("inputs");
});

test("fields the program leaves unset stay out of the inputs; an update records the new declaration", async () => {
  const made = await p.create({ name: "a" });
  expect((await p.read("T1", made.outs!)).inputs).toEqual({ name: "a" });
  const updated = await p.update("T1", made.outs!, { name: "a", description: "now managed" });
  expect((await p.read("T1", updated.outs!)).inputs).toEqual({ name: "a", description: "now managed" });
});

test("a state written before the record, and an object that is gone, get no inputs (the engine keeps the old ones)", async () => {
  live.set("T1", { name: "a", description: "", limits: null, steps: [], createdAt: "t0" });
  const legacy = await p.read("T1", { name: "a", description: "", limits: null, steps: [], createdAt: "t0" });
  expect(legacy.id).toBe("T1");
  expect(legacy).not.toHaveProperty("inputs");
  live.clear();
  await expect(p.read("T1", { name: "a", [DECLARED]: "name" })).resolves.toEqual({ id: "", props: {} });
});

test("shapes: objects by key, arrays by element, elements past the declared ones kept whole", () => {
  const declared = { steps: [{ at: 1 }], limits: { soft: 1 }, name: "x", off: null };
  expect(shapeOf(declared)).toEqual({ steps: [{ at: true }], limits: { soft: true }, name: true, off: true });
  expect(
    cutTo(
      [
        { at: 1, by: "s" },
        { at: 2, by: "s" },
      ],
      shapeOf(declared.steps),
    ),
  ).toEqual([{ at: 1 }, { at: 2, by: "s" }]);
  // A declared object the server reports as null (removed by hand), or a leaf that became an object.
  expect(cutTo(null, { soft: true })).toBeNull();
  expect(cutTo({ a: 1 }, true)).toEqual({ a: 1 });
  expect(cutTo({ hard: 2 }, { soft: true })).toEqual({});
});
