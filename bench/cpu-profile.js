// A V8 CPU profile of the process it runs in, for the probes (cpu-probe.js, start-probe.js): started
// at once, sampled every 500 µs, and written to `file` by the returned function (once, whoever calls
// it first). A session on this thread answers `post` synchronously, so the profile is on disk when
// the function returns: a probe can then raise the engine's signal again.
const fs = require("node:fs");

module.exports = function startProfile(file) {
  const session = new (require("node:inspector").Session)();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: 500 });
  session.post("Profiler.start");
  let written = false;
  return () => {
    if (written) return;
    written = true;
    session.post("Profiler.stop", (err, res) => {
      if (!err) fs.writeFileSync(file, JSON.stringify(res.profile));
    });
  };
};
