-- Ledger records can be inserted and read, never changed or removed (docs/ledger.md#append-only): enforced here,
-- below every route, on PGlite and PostgreSQL alike.
CREATE FUNCTION ledger_records_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger records are append-only: % is not allowed', TG_OP
    USING ERRCODE = 'restrict_violation';
END
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_records_no_update_or_delete
  BEFORE UPDATE OR DELETE ON ledger_records
  FOR EACH ROW EXECUTE FUNCTION ledger_records_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_records_no_truncate
  BEFORE TRUNCATE ON ledger_records
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_records_append_only();
