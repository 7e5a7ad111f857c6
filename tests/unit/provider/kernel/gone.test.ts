// The 404-means-gone helpers and parentService that child resources share (kernel/gone.ts).
import { ApiError, PagerDutyError } from "../../../../provider/errors";
import { deleteOrGone, parentService, readOrGone, updateOrGone } from "../../../../provider/kernel/gone";

const status = (s: number) => new ApiError({ method: "GET", path: "/x", status: s, errors: [], response: { status: s, headers: {}, body: null } });

test("readOrGone: a 404 is an empty id (refresh drops the object); other errors propagate", async () => {
  await expect(readOrGone(async () => ({ id: "R1", props: { a: 1 } }))).resolves.toEqual({ id: "R1", props: { a: 1 } });
  await expect(readOrGone(async () => Promise.reject(status(404)))).resolves.toEqual({ id: "", props: {} });
  await expect(readOrGone(async () => Promise.reject(status(500)))).rejects.toMatchObject({ status: 500 });
});

test("deleteOrGone: a 404 is done; other errors propagate", async () => {
  await expect(deleteOrGone(async () => Promise.reject(status(404)))).resolves.toBeUndefined();
  await expect(deleteOrGone(async () => Promise.reject(status(409)))).rejects.toMatchObject({ status: 409 });
});

test("updateOrGone: a 404 says the object is gone and that pulumi refresh reconciles; other errors propagate", async () => {
  await expect(updateOrGone("service P1", async () => 7)).resolves.toBe(7);
  const gone = updateOrGone("service P1", async () => Promise.reject(status(404)));
  await expect(gone).rejects.toMatchObject({ code: "ERR_NOT_FOUND" });
  await expect(gone).rejects.toThrow(/^service P1 is gone: it was deleted outside Pulumi \(GET \/x failed: 404\)\. Run "pulumi refresh" to reconcile/);
  await expect(updateOrGone("service P1", async () => Promise.reject(status(500)))).rejects.toMatchObject({ status: 500 });
});

test("parentService: the service id from state, or an input error naming the object", () => {
  expect(parentService({ service: "PSVC1" }, "rule R1")).toBe("PSVC1");
  expect(() => parentService({}, "rule R1")).toThrow(PagerDutyError);
  expect(() => parentService(undefined, "rule R1")).toThrow('rule R1 has no "service" in its state');
});
