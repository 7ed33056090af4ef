-- The notification says when a PPA row was deleted ('delete'; '' otherwise): `sync --follow` then compares slugs
-- in its very next run, so a hard delete is served within seconds, not at the next minute's reconcile.
CREATE OR REPLACE FUNCTION ppa_index_records_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('ppa_index_records', CASE WHEN TG_OP = 'DELETE' THEN 'delete' ELSE '' END);
  RETURN NULL;
END $$;
