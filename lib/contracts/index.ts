import { ACTIVATION_OPERATIONS } from "./activation";
import { EVOLUTION_OPERATIONS } from "./evolution";
import { INSTALL_LINK_OPERATIONS } from "./install-links";
import { MEMBER_OPERATIONS } from "./members";
import { SETTINGS_OPERATIONS } from "./settings";
import { LEDGER_OPERATIONS } from "./ledger";
import { LINT_OPERATIONS } from "./lint";
import { LISTING_OPERATIONS } from "./listing";
import type { Operation } from "./operation";
import { SERVICE_OPERATIONS } from "./service";
import { CATALOG_OPERATIONS } from "./catalog";
import { FILE_OPERATIONS } from "./files";
import { LEARNED_OPERATIONS } from "./learned";
import { SYNC_OPERATIONS } from "./sync";
import { VERSION_OPERATIONS } from "./versions";
import { TRANSFER_OPERATIONS } from "./transfer";
import { WEBHOOK_OPERATIONS } from "./webhooks";

/** Every operation of the API, in the order the OpenAPI document lists them. */
export const OPERATIONS: readonly Operation[] = [
  ...LISTING_OPERATIONS,
  ...CATALOG_OPERATIONS,
  ...SYNC_OPERATIONS,
  ...LEARNED_OPERATIONS,
  ...VERSION_OPERATIONS,
  ...FILE_OPERATIONS,
  ...LINT_OPERATIONS,
  ...LEDGER_OPERATIONS,
  ...EVOLUTION_OPERATIONS,
  ...ACTIVATION_OPERATIONS,
  ...TRANSFER_OPERATIONS,
  ...SERVICE_OPERATIONS,
  ...INSTALL_LINK_OPERATIONS,
  ...MEMBER_OPERATIONS,
  ...SETTINGS_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
] as Operation[];
