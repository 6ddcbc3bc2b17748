import { handleMcp } from "@/lib/mcp/endpoint";

/** /api/mcp — the MCP endpoint (Streamable HTTP, bearer API key): skill_list, skill_view, skill_manage, experiment, record_observation. */
export const POST = handleMcp;
export const GET = handleMcp;
export const DELETE = handleMcp;
