import { handleMcp } from "@/lib/mcp/endpoint";
import { otherMethods } from "@/lib/http/methods";

/** /api/mcp — the MCP endpoint (Streamable HTTP, bearer API key): skill_list, skill_view, skill_file, skill_manage, experiment, record_observation. */
export const POST = handleMcp;
export const GET = handleMcp;
export const DELETE = handleMcp;

export const { PUT, PATCH, HEAD, OPTIONS } = otherMethods({ GET, POST, DELETE });
