-- Amendments take the states of docs/evaluation-and-activation.md#amendment-states: one whose evaluation is running is "evaluating" (the worker
-- that finishes it moves it on from that state), and the decisions the history already records
-- (approved, rejected, overridden) are written on the amendment: which, who, when and why. An
-- evaluation that could never finish under these states (its amendment decided meanwhile, or a
-- newer one of the same amendment running beside it) is ended as failed, saying why.
UPDATE "evaluations" e SET "status" = 'failed', "finished_at" = now(),
  "error" = 'ended at the upgrade to amendment states: the amendment was decided, or judged again, while this evaluation ran'
WHERE e."status" = 'running' AND (
  EXISTS (SELECT 1 FROM "amendments" a WHERE a."id" = e."amendment_id" AND a."status" NOT IN ('pending', 'evaluated'))
  OR EXISTS (SELECT 1 FROM "evaluations" n WHERE n."amendment_id" = e."amendment_id" AND n."status" = 'running' AND n."id" > e."id")
);
--> statement-breakpoint
UPDATE "amendments" SET "status" = 'evaluating'
WHERE "status" IN ('pending', 'evaluated')
  AND EXISTS (SELECT 1 FROM "evaluations" e WHERE e."amendment_id" = "amendments"."id" AND e."status" = 'running');
--> statement-breakpoint
UPDATE "amendments" a SET
  "rejected_by_user_id" = ev."actor_user_id",
  "rejected_by_key_id" = ev."actor_key_id",
  "rejected_session" = ev."session_id",
  "rejected_at" = ev."at",
  "rejection_reason" = ev."detail"->>'reason'
FROM (
  SELECT DISTINCT ON ("team_id", ("detail"->>'amendmentId')) *
  FROM "skill_events" WHERE "kind" = 'rejected' AND "detail" ? 'amendmentId'
  ORDER BY "team_id", ("detail"->>'amendmentId'), "id"
) ev
WHERE ev."team_id" = a."team_id" AND ev."detail"->>'amendmentId' = a."id"::text;
--> statement-breakpoint
UPDATE "amendments" a SET
  "decision" = CASE ev."kind" WHEN 'approved' THEN 'approved' WHEN 'rejected' THEN 'rejected' ELSE 'overridden' END,
  "decided_by_user_id" = ev."actor_user_id",
  "decided_by_key_id" = ev."actor_key_id",
  "decided_session" = ev."session_id",
  "decided_at" = ev."at",
  "decision_reason" = CASE ev."kind" WHEN 'overridden' THEN ev."detail"->>'overrideReason' WHEN 'rejected' THEN ev."detail"->>'reason' END
FROM (
  SELECT DISTINCT ON ("team_id", ("detail"->>'amendmentId')) *
  FROM "skill_events" WHERE "kind" IN ('approved', 'rejected', 'overridden') AND "detail" ? 'amendmentId'
  ORDER BY "team_id", ("detail"->>'amendmentId'), "id" DESC
) ev
WHERE ev."team_id" = a."team_id" AND ev."detail"->>'amendmentId' = a."id"::text;
