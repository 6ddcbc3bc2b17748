import type { WebhookEvent } from "./events";

/**
 * The sentence a person reads for an event: the text of a Slack message and of a mail. Receivers
 * of the JSON envelope read `data` instead.
 */
export function eventSentence(event: WebhookEvent): string {
  switch (event.event) {
    case "amendment.awaiting_approval":
      return `Amendment #${event.data.amendment} to ${event.data.skill} awaits a lead's approval: judged ${event.data.verdict}${delta(event.data.delta)} against v${event.data.baseVersion}.`;
    case "amendment.decided":
      return decidedSentence(event.data);
    case "evaluation.finished":
      return `Evaluation #${event.data.evaluation} of amendment #${event.data.amendment} to ${event.data.skill} finished: ${event.data.verdict}${delta(event.data.delta)}; the amendment is ${event.data.amendmentStatus}.`;
    case "skill.promoted":
      return event.data.from === "draft"
        ? `${event.data.skill} v${event.data.version} is live: the draft was promoted.`
        : `${event.data.skill} v${event.data.version} is live: amendment #${event.data.amendment} was promoted.`;
    case "skill.rolled_back":
      return `${event.data.skill} was rolled back from v${event.data.from}: v${event.data.version} has the content of v${event.data.revertOf}.${pinNote(event.data.version, event.data.served)}`;
    case "sync.finished":
      return `A sync changed the workspace: ${event.data.added} added, ${event.data.updated} updated, ${event.data.removed} removed${event.data.invalid > 0 ? `, ${event.data.invalid} invalid` : ""}.`;
    case "skill.only_typed":
      return `${event.data.skill} is used only by people typing /${event.data.skill} (${event.data.slash} time${event.data.slash === 1 ? "" : "s"} in 30 days): its description does not make the model choose it.`;
    case "ping":
      return `A test event for webhook #${event.data.webhook}: Skillgate reaches this receiver.`;
  }
}

function decidedSentence(data: Extract<WebhookEvent, { event: "amendment.decided" }>["data"]): string {
  const by = data.by ?? "an API key";
  const why = data.reason ? `: "${data.reason}"` : "";
  const live = data.version !== null ? `; ${data.skill} is now v${data.version}` : "";
  const what = data.decision === "overridden" ? "promoted by a manual override" : data.decision;
  return `Amendment #${data.amendment} to ${data.skill} was ${what} by ${by}${why}${live}.`;
}

function delta(value: number | null): string {
  if (value === null) return "";
  return ` (${value >= 0 ? "+" : ""}${value.toFixed(2)})`;
}

/** Slack's mrkdwn treats these three as markup: https://api.slack.com/reference/surfaces/formatting#escaping */
function slackEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** What a Slack incoming webhook gets: the team, the sentence and a link to the item. */
export function slackMessage(team: string, event: WebhookEvent, url: string): { text: string } {
  return { text: `[${slackEscape(team)}] ${slackEscape(eventSentence(event))} <${url}|Open in Skillgate>` };
}

/** What a lead who asked for mail gets. */
export function eventMail(team: string, event: WebhookEvent, url: string, settingsUrl: string): { subject: string; text: string } {
  const sentence = eventSentence(event);
  return {
    subject: `[Skillgate ${team}] ${sentence.length > 120 ? `${sentence.slice(0, 117)}…` : sentence}`,
    text: `${sentence}\n\nOpen it: ${url}\n\nYou get this mail because you asked for ${event.event} mails in team ${team}; change that at ${settingsUrl}.\n`,
  };
}

/** What a rollback did to a lead's pin, when there is one: agents get the new version through it, or keep the pinned one. */
function pinNote(version: number, served: { version: number; why: string }): string {
  if (served.why !== "pinned") return "";
  return served.version === version ? " The pin moved to it, so agents get it." : ` Agents keep v${served.version}: it stays pinned.`;
}
