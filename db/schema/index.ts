export * from "./teams";
export * from "./skills";
