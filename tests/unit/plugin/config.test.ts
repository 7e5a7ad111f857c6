import { CONFIG_KEYS } from "../../../provider/config";
import { CONFIG_SETTINGS, configKey, hasUnknown, inPackageTerms, settingsGetter } from "../../../plugin/config";
import { UNKNOWN } from "../../../provider/kernel/check";

test("the package's settings are exactly the dynamic providers' settings and the accounts", () => {
  expect(CONFIG_SETTINGS.map((s) => s.name).sort()).toEqual([...Object.keys(CONFIG_KEYS), "accounts"].sort());
});

test("the dynamic providers' keys read the values Configure names in the package's namespace", () => {
  const get = settingsGetter(
    new Map([
      ["pagerduty-dynamic:config:clientId", "abc"],
      ["pagerduty-dynamic:subdomain", "acme"],
    ]),
  );
  expect(get("pagerduty:clientId")).toBe("abc");
  expect(get("pagerduty:subdomain")).toBe("acme");
  expect(get("pagerduty:clientSecret")).toBeUndefined();
  // @pulumi/pagerduty's keys are never read.
  expect(settingsGetter(new Map([["pagerduty:config:clientId", "theirs"]]))("pagerduty:clientId")).toBeUndefined();
  expect(configKey("token")).toBe("pagerduty-dynamic:token");
});

test("messages name the package's keys", () => {
  expect(inPackageTerms('set "pagerduty:clientId" and "pagerduty:accounts.eu.token"')).toBe(
    'set "pagerduty-dynamic:clientId" and "pagerduty-dynamic:accounts.eu.token"',
  );
  expect(inPackageTerms("pagerduty:Service")).toBe("pagerduty:Service");
});

test("a setting not known yet is seen", () => {
  expect(hasUnknown(new Map([["a", "x"]]))).toBe(false);
  expect(hasUnknown(new Map([["a", UNKNOWN]]))).toBe(true);
});
