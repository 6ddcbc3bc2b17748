/**
 * Where public skill repositories keep their SKILL.md files, path for path as GitHub holds them
 * (read through the repositories' file listings: the marketplace or README of each names what is
 * current). Only the layout is real: each SKILL.md is written small by `layoutFiles`.
 */

export interface RepositoryLayout {
  /** Paths of the repository's SKILL.md files. */
  skillMds: string[];
  /** Other files at their real paths: READMEs, manifests, agents' folders. */
  others: string[];
}

const TRAILOFBITS_PLUGINS: Record<string, string[]> = {
  "adversarial-verification": ["adversarial-verification"],
  "agentic-actions-auditor": ["agentic-actions-auditor"],
  "audit-context-building": ["audit-context-building"],
  "building-secure-contracts": [
    "algorand-vulnerability-scanner",
    "audit-prep-assistant",
    "cairo-vulnerability-scanner",
    "cardano-vulnerability-scanner",
    "code-maturity-assessor",
    "cosmos-vulnerability-scanner",
    "solana-vulnerability-scanner",
    "substrate-vulnerability-scanner",
    "ton-vulnerability-scanner",
  ],
  "burpsuite-project-parser": ["burpsuite-project-parser"],
  "c-review": ["c-review"],
  "claude-in-chrome-troubleshooting": ["troubleshooting"],
  "code-improver": ["code-improver", "pr-improver", "skill-improver"],
  "constant-time-analysis": ["constant-time-analysis"],
  "corellium-workflows": ["corellium-workflows"],
  "culture-index": ["interpreting-culture-index"],
  "devcontainer-setup": ["devcontainer-setup"],
  diataxis: ["documenting-with-diataxis"],
  "differential-review": ["differential-review"],
  "firebase-apk-scanner": ["firebase-apk-scanner"],
  "fp-check": ["fp-check"],
  "gh-cli": ["using-gh-cli"],
  "git-cleanup": ["git-cleanup"],
  "github-triage": ["github-triage"],
  "insecure-defaults": ["insecure-defaults"],
  "let-fate-decide": ["let-fate-decide"],
  "modern-python": ["modern-python"],
  "mutation-testing": ["mutation-testing"],
  "open-sourcing": ["open-sourcing"],
  "post-patch-validation": ["post-patch-validation"],
  "property-based-testing": ["property-based-testing"],
  "review-walkthrough": ["review-walkthrough"],
  "rust-review": ["rust-review"],
  "second-opinion": ["second-opinion"],
  "semgrep-rule-creator": ["semgrep-rule-creator"],
  "semgrep-rule-variant-creator": ["semgrep-rule-variant-creator"],
  "sharp-edges": ["sharp-edges"],
  "spec-to-code-compliance": ["spec-to-code-compliance"],
  "static-analysis": ["codeql", "sarif-parsing", "semgrep"],
  "supply-chain-risk-auditor": ["supply-chain-risk-auditor"],
  "testing-handbook-skills": [
    "aflpp",
    "atheris",
    "cargo-fuzz",
    "constant-time-testing",
    "coverage-analysis",
    "fuzzing-dictionary",
    "fuzzing-obstacles",
    "harness-writing",
    "ossfuzz",
    "semgrep",
  ],
  trailmark: [
    "audit-augmentation",
    "code-slice-dispatch",
    "crypto-protocol-diagram",
    "diagramming-code",
    "genotoxic",
    "graph-evolution",
    "mermaid-to-proverif",
    "slicing-code-context",
    "trailmark",
    "trailmark-finding-triage",
    "trailmark-structural",
    "trailmark-summary",
    "trailmark-variant-neighborhood",
    "vector-forge",
  ],
  "variant-analysis": ["variant-analysis"],
  "vulnerability-triage-brocards": ["vulnerability-triage-brocards"],
  "writing-lean-proofs": ["writing-lean-proofs"],
  "yara-authoring": ["yara-rule-authoring"],
  "zeroize-audit": ["zeroize-audit"],
};

/** trailofbits/skills: a Claude Code marketplace, every skill in `plugins/<plugin>/skills/<skill>/`, one more for Codex. */
export const TRAILOFBITS: RepositoryLayout = {
  skillMds: [
    ...Object.entries(TRAILOFBITS_PLUGINS).flatMap(([plugin, skills]) =>
      skills.map((skill) => `plugins/${plugin}/skills/${skill}/SKILL.md`),
    ),
    ".codex/skills/gh-cli/SKILL.md",
  ],
  others: [
    "README.md",
    "CLAUDE.md",
    ".claude-plugin/marketplace.json",
    "plugins/trailmark/.claude-plugin/plugin.json",
    "plugins/trailmark/README.md",
    "plugins/c-review/agents/c-review-worker.md",
    "docs/opencode.md",
  ],
};

/** vercel-labs/agent-skills: seven skills in `skills/`, beside the packages that build them. */
export const VERCEL_AGENT_SKILLS: RepositoryLayout = {
  skillMds: [
    "composition-patterns",
    "getcli",
    "react-best-practices",
    "react-native-skills",
    "react-view-transitions",
    "vercel-deploy-claimable",
    "web-design-guidelines",
  ].map((name) => `skills/${name}/SKILL.md`),
  others: [
    "README.md",
    "AGENTS.md",
    "skills/react-best-practices/metadata.json",
    "packages/vercel-optimize-tests/test/fixtures/real-cli-output/README.md",
  ],
};

/** UiPath/skills: the skills of its README's status table in `skills/`, one maintainers' skill in `.claude/skills/`. */
export const UIPATH: RepositoryLayout = {
  skillMds: [
    ...[
      "uipath-admin",
      "uipath-agents",
      "uipath-aops",
      "uipath-api-workflow",
      "uipath-automation-discovery",
      "uipath-automationhub",
      "uipath-coded-apps",
      "uipath-connector-builder",
      "uipath-feedback",
      "uipath-functions",
      "uipath-genome",
      "uipath-governance",
      "uipath-human-in-the-loop",
      "uipath-insights",
      "uipath-ixp",
      "uipath-maestro-bpmn",
      "uipath-maestro-case",
      "uipath-maestro-flow",
      "uipath-mcp-servers",
      "uipath-planner",
      "uipath-platform",
      "uipath-process-mining",
      "uipath-review",
      "uipath-rpa",
      "uipath-solution",
      "uipath-tasks",
      "uipath-test",
      "uipath-troubleshoot",
    ].map((name) => `skills/${name}/SKILL.md`),
    ".claude/skills/manage-skill-flavors/SKILL.md",
  ],
  others: ["README.md", "CLAUDE.md", "skills/INDEX.md", ".claude/commands/lint-task.md", "agents/uipath-project-discovery-agent.md"],
};

/** openai/skills: curated skills in `skills/.curated/`, the system ones in `skills/.system/`; both hidden. */
export const OPENAI_SKILLS: RepositoryLayout = {
  skillMds: [
    ...["develop-web-game", "gh-address-comments", "gh-fix-ci", "linear", "notion-knowledge-capture", "playwright"].map(
      (name) => `skills/.curated/${name}/SKILL.md`,
    ),
    ...["imagegen", "openai-docs", "skill-creator", "skill-installer"].map((name) => `skills/.system/${name}/SKILL.md`),
  ],
  others: ["README.md", "contributing.md", "skills/.system/skill-creator/references/openai_yaml.md"],
};

/** anthropics/skills: the skills its marketplace lists in `skills/`, a `template/` skill folder and the spec. */
export const ANTHROPIC_SKILLS: RepositoryLayout = {
  skillMds: [
    ...[
      "algorithmic-art",
      "brand-guidelines",
      "canvas-design",
      "claude-api",
      "doc-coauthoring",
      "docx",
      "frontend-design",
      "internal-comms",
      "mcp-builder",
      "pdf",
      "pptx",
      "skill-creator",
      "slack-gif-creator",
      "theme-factory",
      "web-artifacts-builder",
      "webapp-testing",
      "xlsx",
    ].map((name) => `skills/${name}/SKILL.md`),
    "template/SKILL.md",
  ],
  others: ["README.md", "THIRD_PARTY_NOTICES.md", ".claude-plugin/marketplace.json", "spec/agent-skills-spec.md"],
};

/**
 * The layout as files of a sync request: each SKILL.md names its folder (anthropics' template
 * says `template-skill`, as the real one does), every other file holds a line.
 */
export function layoutFiles(layout: RepositoryLayout): { path: string; content: string }[] {
  const skillMd = (path: string) => {
    const segments = path.split("/");
    const folder = segments.at(-2) ?? "";
    const name = folder === "template" ? "template-skill" : folder;
    return `---\nname: ${name}\ndescription: Does ${name}. Use when ${name} comes up.\n---\n# ${name}\n`;
  };
  return [
    ...layout.skillMds.map((path) => ({ path, content: skillMd(path) })),
    ...layout.others.map((path) => ({ path, content: `${path}\n` })),
  ].sort((a, b) => (a.path < b.path ? -1 : 1));
}
