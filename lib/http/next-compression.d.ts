// Next's own copy of the `compression` middleware, which `next start` applies to every answer;
// lib/http/front-routes.ts applies the same to what it answers in front of Next.
declare module "next/dist/compiled/compression" {
  import type { IncomingMessage, ServerResponse } from "node:http";
  export default function compression(): (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
}
