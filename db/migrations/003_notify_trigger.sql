-- Optional: wakes `ppa-indexer sync --follow` at once (LISTEN ppa_index_records) instead of at its next poll.
-- A notification is sent when the transaction commits, once per transaction; children's changes touch ppas.
CREATE FUNCTION ppa_index_records_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('ppa_index_records', '');
  RETURN NULL;
END $$;

CREATE TRIGGER ppa_index_records_notify AFTER INSERT OR UPDATE OR DELETE ON ppas
  FOR EACH STATEMENT EXECUTE FUNCTION ppa_index_records_notify();
