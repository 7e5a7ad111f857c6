// Preloaded (NODE_OPTIONS=--require) into every Node process of a run of `npm run bench:small`; acts
// in the processes that serve resources: a package plugin (`pulumi-resource-pagerduty-dynamic`, this
// package's or the benchmark's do-nothing one) and Pulumi's dynamic-provider host. Into
// $PPD_START_DIR/<role>-<pid>.jsonl it appends one JSON line per event, each with `t`, milliseconds
// since the process started (performance.timeOrigin), written at once (a plugin may be killed
// without an `exit` event):
// - {ev: "start", role, argv, origin}: origin is the process's start in epoch milliseconds;
// - {ev: "port"}: the first line on stdout, the port the engine waits for;
// - {ev: "call", method, end, cpu, error?}: each gRPC call the engine made, `t` its start (grpc-js'
//   Server.addService is wrapped when the process loads grpc-js, whichever server it serves), `cpu`
//   the process's CPU milliseconds (user and system, every thread) when it answered;
// - {ev: "request", method, origin, path, end, status}: each HTTP request through undici (its
//   diagnostics channels), the token endpoint's included.
// $PPD_PROFILE_DIR: a V8 CPU profile of the process from its start, written there as
// <role>-<pid>.cpuprofile when it ends (Chrome DevTools or speedscope open them). Through
// node:inspector rather than `--cpu-prof` in NODE_OPTIONS, which reaches every Node process of the
// run and stops the language host from running a TypeScript program. The engine ends these
// processes with a signal, which would kill Node without an `exit` event, so a signal is caught,
// the profile written, and the signal raised again.
const fs = require("node:fs");
const path = require("node:path");

const dir = process.env.PPD_START_DIR;
const script = process.argv[1] ?? "";
const role = /pulumi-resource-pagerduty-dynamic$/.test(script) ? "plugin" : /dynamic-provider/.test(script) ? "dynamic" : undefined;

if (dir && role) {
  const { performance } = require("node:perf_hooks");
  const file = path.join(dir, `${role}-${process.pid}.jsonl`);
  const now = () => Math.round(performance.now() * 100) / 100;
  const write = (event) => {
    try {
      fs.appendFileSync(file, `${JSON.stringify(event)}\n`);
    } catch {
      // the benchmark removed the directory: nothing to record any more
    }
  };
  write({ ev: "start", t: now(), role, argv: process.argv.slice(1, 2), origin: performance.timeOrigin });

  const stdoutWrite = process.stdout.write;
  process.stdout.write = function (...args) {
    process.stdout.write = stdoutWrite;
    write({ ev: "port", t: now() });
    return stdoutWrite.apply(this, args);
  };

  // gRPC calls: wrap each handler of the service a server registers, once grpc-js is loaded.
  const Module = require("node:module");
  const load = Module._load;
  Module._load = function (request, parent, isMain) {
    const exports = load.apply(this, [request, parent, isMain]);
    // grpc-js by its shape: a server may load it by its resolved path.
    if (typeof exports?.Server === "function" && exports.ServerCredentials && exports.Metadata && !exports.Server.prototype.__probed) {
      const addService = exports.Server.prototype.addService;
      exports.Server.prototype.__probed = true;
      exports.Server.prototype.addService = function (service, impl) {
        const wrapped = Object.create(impl);
        for (const name of Object.keys(service)) {
          const fn = impl[name];
          if (typeof fn !== "function") continue;
          wrapped[name] = (call, callback) => {
            const t = now();
            return fn.call(impl, call, (err, ...rest) => {
              const cpu = process.cpuUsage();
              write({
                ev: "call",
                method: name,
                t,
                end: now(),
                cpu: Math.round((cpu.user + cpu.system) / 100) / 10,
                ...(err ? { error: String(err.details ?? err.message ?? JSON.stringify(err)).slice(0, 200) } : {}),
              });
              return callback(err, ...rest);
            });
          };
        }
        return addService.call(this, service, wrapped);
      };
    }
    return exports;
  };

  // HTTP requests through undici, by its diagnostics channels.
  const dc = require("node:diagnostics_channel");
  const started = new WeakMap();
  dc.subscribe("undici:request:create", ({ request }) => started.set(request, now()));
  const done = (request, status) => {
    const t = started.get(request);
    if (t === undefined) return;
    started.delete(request);
    write({ ev: "request", method: request.method, origin: request.origin, path: request.path.split("?")[0], t, end: now(), status });
  };
  dc.subscribe("undici:request:headers", ({ request, response }) => done(request, response.statusCode));
  dc.subscribe("undici:request:error", ({ request, error }) => done(request, error?.code ?? "error"));

  const profileDir = process.env.PPD_PROFILE_DIR;
  if (profileDir) {
    const writeProfile = require("./cpu-profile.js")(path.join(profileDir, `${role}-${process.pid}.cpuprofile`));
    process.on("exit", writeProfile);
    for (const signal of ["SIGINT", "SIGTERM"])
      process.once(signal, () => {
        writeProfile();
        process.kill(process.pid, signal);
      });
  }
}
