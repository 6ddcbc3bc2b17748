// The machine's floor for the hot rows' tails: a bare Node.js server that answers every request
// with the same bytes from memory, measured by the same load generator as the rows it stands
// beside (docs/hot-path.md, "The machine's own tail"). Its port goes to the parent once it listens.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const body = Buffer.alloc(Number(process.argv[2]), "a");
const server = createServer((_request, response) => {
  response.writeHead(200, { "content-type": "application/json", "content-length": body.length });
  response.end(body);
});
server.listen(0, "127.0.0.1", () => process.send?.((server.address() as AddressInfo).port));
