// The 404 of a child's request under its service says which account was asked and what to set.
import { ApiError, PagerDutyError } from "../../../../provider/errors";
import { serviceNotFoundHint, withServiceNotFoundHint } from "../../../../provider/operations/service-hint";

const notFound = new ApiError({
  method: "POST",
  path: "/services/P3LKWGM/integrations",
  status: 404,
  apiMessage: "Not Found",
  errors: ["Service P3LKWGM not found"],
  response: { status: 404, headers: {}, body: null },
});

test("names the account asked, the setting, and that children do not take the service's account", () => {
  expect(serviceNotFoundHint({ account: "default" }, "P3LKWGM")).toBe(
    "service P3LKWGM is not in the default account, the account this resource names. If the service lives in another account, " +
      "give this resource that account too (`account`, as on its service): a child resource does not take its account from its service",
  );
  expect(serviceNotFoundHint({ account: "eu" }, "P3LKWGM")).toMatch(/^service P3LKWGM is not in account "eu", the account this resource names/);
});

test("a 404 gets the hint after the API's words, keeping its code and cause; other errors pass unchanged", () => {
  const e = withServiceNotFoundHint({ account: "default" }, "P3LKWGM", notFound) as PagerDutyError;
  expect(e).toBeInstanceOf(PagerDutyError);
  expect(e.code).toBe("ERR_NOT_FOUND");
  expect(e.cause).toBe(notFound);
  expect(e.message).toMatch(
    /^POST \/services\/P3LKWGM\/integrations failed: 404 Not Found: Service P3LKWGM not found: service P3LKWGM is not in the default account/,
  );
  const other = new PagerDutyError("ERR_API", "boom");
  expect(withServiceNotFoundHint({ account: "default" }, "P3LKWGM", other)).toBe(other);
});
