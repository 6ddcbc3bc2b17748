import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import type { ModelConfig } from "../env";
import { specError } from "../errors";
import type { Db } from "@/db/client";
import type { InstanceWork } from "../jobs/work";
import type { CatalogCache } from "../skills/catalog-cache";

/** The configured model and the id evaluations record it by (`openai:gpt-4.1-mini`). */
export interface ConfiguredModel {
  model: LanguageModel;
  id: string;
  /** How long a person waits for the model's amendment before it is given up on; PROPOSAL_TIMEOUT_MS when unset. */
  timeoutMs?: number;
}

/** Builds the model SKILLGATE_MODEL names (docs/evaluation-and-activation.md#the-judge-model), or null when none is set. A malformed setting stops start-up. */
export function modelFromConfig(config: ModelConfig): ConfiguredModel | null {
  const model = languageModelOf(config);
  return model && config.spec ? { id: config.spec, model, timeoutMs: config.timeoutSeconds * 1000 } : null;
}

function languageModelOf(config: ModelConfig): ConfiguredModel["model"] | null {
  if (!config.spec) return null;
  const colon = config.spec.indexOf(":");
  const provider = config.spec.slice(0, colon);
  const modelId = config.spec.slice(colon + 1);
  if (colon < 1 || modelId === "") {
    throw new Error(`SKILLGATE_MODEL must be <provider>:<model>, e.g. openai:gpt-4.1-mini (got "${config.spec}")`);
  }
  switch (provider) {
    case "openai":
      return createOpenAI({ apiKey: config.openaiApiKey })(modelId);
    case "anthropic":
      return createAnthropic({ apiKey: config.anthropicApiKey })(modelId);
    case "openai-compatible":
      if (!config.openaiBaseUrl) {
        throw new Error("SKILLGATE_MODEL=openai-compatible:… needs SKILLGATE_OPENAI_BASE_URL, e.g. http://localhost:11434/v1");
      }
      return createOpenAICompatible({ name: "openai-compatible", baseURL: config.openaiBaseUrl, apiKey: config.compatibleApiKey })(modelId);
    default:
      throw new Error(`SKILLGATE_MODEL: unknown provider "${provider}"; use openai, anthropic or openai-compatible`);
  }
}

/** The model, or 503 NoModel (docs/evaluation-and-activation.md#the-judge-model): evaluation and generation need one, nothing else does. */
export function requireModel(model: ConfiguredModel | null): ConfiguredModel {
  if (!model) throw specError("NoModel", "set SKILLGATE_MODEL to evaluate amendments");
  return model;
}

/** What model work kept as leased rows (activation runs, evaluations) needs from the app. */
export interface ModelWorkDeps {
  db: Db;
  catalogs: CatalogCache;
  model: ConfiguredModel | null;
  judgeConcurrency: number;
  work: InstanceWork;
}
