// Writes the OpenAPI document generated from lib/contracts to a file, for `redocly lint` (npm run lint:openapi).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { openApiDocument } from "../lib/contracts/openapi";

const out = path.resolve(process.argv[2] ?? "node_modules/.cache/skillgate/openapi.json");
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(openApiDocument("/"), null, 2));
console.log(out);
