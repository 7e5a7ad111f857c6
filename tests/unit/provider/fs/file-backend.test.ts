// Where the local file backend keeps a stack's checkpoint (provider/fs/file-backend.ts).
import * as os from "node:os";
import * as path from "node:path";
import { fileBackendDir } from "../../../../provider/fs/file-backend";

test("file URLs resolve as the CLI resolves them", () => {
  expect(fileBackendDir("file://~", "/p")).toBe(os.homedir());
  expect(fileBackendDir("file://~/state?no_tmp_dir=false", "/p")).toBe(path.join(os.homedir(), "state"));
  expect(fileBackendDir("file:///var/state", "/p")).toBe("/var/state");
  expect(fileBackendDir("file://./state", "/p")).toBe("/p/state");
  expect(fileBackendDir("https://api.pulumi.com", "/p")).toBeUndefined();
});
