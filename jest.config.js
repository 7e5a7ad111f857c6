// Five jest projects so each suite can be run alone: `npx jest --selectProjects unit`.
// jose (ES modules only) is compiled to CommonJS for jest's module runtime: tests/support/esm-to-cjs.js.
const common = {
  preset: "ts-jest",
  testEnvironment: "node",
  transform: { "/node_modules/jose/.+\\.js$": "<rootDir>/tests/support/esm-to-cjs.js" },
  transformIgnorePatterns: ["/node_modules/(?!jose/)"],
};
module.exports = {
  // Every core: jest's default is one fewer, a single worker on the 2-core machines the suite runs on
  // (the fast suites took 275 s on one, 172 s on two). scripts/test.sh sets the e2e files' own.
  maxWorkers: "100%",
  projects: [
    { ...common, displayName: "unit", testMatch: ["<rootDir>/tests/unit/**/*.test.ts"] },
    { ...common, displayName: "emulator", testMatch: ["<rootDir>/tests/emulator/**/*.test.ts"] },
    { ...common, displayName: "integration", testMatch: ["<rootDir>/tests/integration/**/*.test.ts"] },
    // PagerDuty's official clients (pdjs, python pagerduty) against the emulator process.
    { ...common, displayName: "clients", testMatch: ["<rootDir>/tests/clients/**/*.test.ts"] },
    { ...common, displayName: "e2e", testMatch: ["<rootDir>/tests/e2e/**/*.test.ts"] },
  ],
};
