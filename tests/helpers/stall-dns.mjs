// Preloaded into a server under test (NODE_OPTIONS="--import …/stall-dns.mjs"): a lookup of
// STALL_DNS_HOST writes `waiting-<pid>` into STALL_DNS_DIR and waits until a file `release` is
// there, then answers 127.0.0.1. A test sees which process is about to send to that host, and can
// kill it before anything is sent. Every other name is looked up as usual.
import dns from "node:dns";
import fs from "node:fs";
import path from "node:path";

const host = process.env.STALL_DNS_HOST;
const dir = process.env.STALL_DNS_DIR;
if (host && dir) {
  const lookup = dns.lookup;
  // Node's own net module reads `lookup` off this object when it connects.
  dns.lookup = function stalledLookup(hostname, options, callback) {
    if (typeof options === "function") return stalledLookup.call(this, hostname, {}, options);
    if (hostname !== host) return lookup.call(this, hostname, options, callback);
    fs.writeFileSync(path.join(dir, `waiting-${process.pid}`), "");
    const timer = setInterval(() => {
      if (!fs.existsSync(path.join(dir, "release"))) return;
      clearInterval(timer);
      if (options && options.all) callback(null, [{ address: "127.0.0.1", family: 4 }]);
      else callback(null, "127.0.0.1", 4);
    }, 20);
  };
}
