// Preloaded (NODE_OPTIONS=--require) into every Node process of a benchmarked `pulumi` run; acts
// only in a dynamic-provider process (its argv names Pulumi's dynamic-provider script).
// - $PPD_CPU_DIR: writes its CPU time (microseconds, user + system) to provider-<pid> there on the
//   way out, and every 500 ms unless profiling (each write is a blocking call the profile would show).
// - $PPD_PROFILE_DIR: records a V8 CPU profile from the start and writes provider-<pid>.cpuprofile
//   there on the way out.
// "The way out": the engine ends the provider with SIGINT (to the process group) when the run is
// done, which by default kills Node without an `exit` event. So the signals are caught, the files
// written, and the signal raised again with the default action: the process dies as it would have.
// The periodic samples stand in if the process is killed outright (SIGKILL after the engine's grace).

// In the program's process (the language host runs Pulumi's cmd/run), $PPD_CPU_DIR gets
// program-<pid> when it exits (it exits by itself), so the run's CPU splits into provider, program
// and the rest (engine and language host).
if (process.env.PPD_CPU_DIR && process.argv.some((a) => /[\\/]cmd[\\/]run\b/.test(a))) {
  const file = require("node:path").join(process.env.PPD_CPU_DIR, `program-${process.pid}`);
  process.on("exit", () => {
    const { user, system } = process.cpuUsage();
    require("node:fs").writeFileSync(file, String(user + system));
  });
}

if ((process.env.PPD_CPU_DIR || process.env.PPD_PROFILE_DIR) && process.argv.some((a) => /dynamic-provider/.test(a))) {
  const fs = require("node:fs");
  const path = require("node:path");
  const onExit = [];

  const cpuDir = process.env.PPD_CPU_DIR;
  if (cpuDir) {
    const file = path.join(cpuDir, `provider-${process.pid}`);
    const write = () => {
      const { user, system } = process.cpuUsage();
      try {
        fs.writeFileSync(file, String(user + system));
      } catch {
        // the benchmark removed the directory: nothing to record any more
      }
    };
    if (!process.env.PPD_PROFILE_DIR) setInterval(write, 500).unref();
    onExit.push(write);
  }

  const profileDir = process.env.PPD_PROFILE_DIR;
  if (profileDir) onExit.unshift(require("./cpu-profile.js")(path.join(profileDir, `provider-${process.pid}.cpuprofile`)));

  const out = () => {
    for (const f of onExit) f();
  };
  process.on("exit", out);
  for (const signal of ["SIGINT", "SIGTERM"])
    process.once(signal, () => {
      out();
      process.kill(process.pid, signal);
    });
}
