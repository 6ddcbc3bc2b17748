export * from "./teams";
export * from "./skills";
export * from "./events";
export * from "./ledger";
export * from "./evolution";
export * from "./activation";
export * from "./mcp";
export * from "./usage";
