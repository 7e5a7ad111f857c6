// Preloaded (NODE_OPTIONS=--require) into every Node process of a benchmarked `pulumi` run. In a
// dynamic-provider process it writes its CPU time (microseconds, user + system) to a file of
// $PPD_CPU_DIR every 100 ms and at exit: the engine may kill the process rather than let it exit,
// so the last sample, at most 100 ms old, stands for the total.

if (process.env.PPD_CPU_DIR && process.argv.some((a) => /dynamic-provider/.test(a))) {
  const fs = require("node:fs");
  const file = require("node:path").join(process.env.PPD_CPU_DIR, `provider-${process.pid}`);
  const write = () => {
    const { user, system } = process.cpuUsage();
    try {
      fs.writeFileSync(file, String(user + system));
    } catch {
      // the benchmark removed the directory: nothing to record any more
    }
  };
  setInterval(write, 100).unref();
  process.on("exit", write);
}
