import { generateText, stepCountIs, tool } from "ai";
import { z } from "zod";
import type { ConfiguredModel } from "../evolution/model";

/**
 * The `model` activator (docs/evaluation-and-activation.md#activation-evals): the model gets the team's listing as its system prompt and one tool,
 * `skill_view(name)`; the skills it loads are the ones it calls, over as many steps as it takes
 * (up to 5). Loading here is measurement, never usage: nothing is recorded as a view.
 */
export async function modelActivate(
  model: ConfiguredModel,
  listingText: string,
  prompt: string,
  bodyOf: (name: string) => Promise<string | null>,
): Promise<string[]> {
  const loaded: string[] = [];
  await generateText({
    model: model.model,
    system: listingText,
    prompt,
    temperature: 0,
    stopWhen: stepCountIs(5),
    tools: {
      skill_view: tool({
        description: "Load the full body of a skill from the listing by its name.",
        inputSchema: z.object({ name: z.string().describe("the skill's name, as in the listing") }),
        execute: async ({ name }) => {
          if (!loaded.includes(name)) loaded.push(name);
          return (await bodyOf(name)) ?? `Error [SkillNotFound]: No skill named '${name}'. Use skill_list to see available skills.`;
        },
      }),
    },
  });
  return loaded;
}
