-- The reference schema: PPAs as a publishing application holds them. One row per PPA (contract, fiscal and
-- offtaker terms are 1:1 columns), its procurement (1:1 table), and its versions and documents (1:N, ordered by
-- position). updated_at moves on every change, the children's included, so a sync finds every change by it;
-- published_at is set when a PPA is first published.

CREATE TABLE ppas (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  slug text NOT NULL UNIQUE,
  reference_code text NOT NULL UNIQUE,
  project_name text NOT NULL,
  developer text NOT NULL,
  location text NOT NULL,
  country_code text,
  technology text NOT NULL,
  tariff text NOT NULL,
  capacity_mw numeric NOT NULL,
  financial_close_year integer,
  risk_features text[] NOT NULL DEFAULT '{}',
  published boolean NOT NULL DEFAULT false,
  active boolean NOT NULL DEFAULT true,
  published_at timestamptz,
  updated_at timestamptz NOT NULL,
  offtaker_name text,
  offtaker_type text,
  contract_signed_date date,
  contract_term_years integer,
  contract_cod_date date,
  contract_currency text,
  contract_energy_rate_per_kwh numeric,
  contract_capacity_rate_per_kw_month numeric,
  fiscal_annual_payment_obligation_usd numeric,
  fiscal_guaranteed_amount_usd numeric,
  fiscal_termination_payment_usd numeric
);
-- What a sync reads: the rows changed since its high-water mark.
CREATE INDEX ppas_updated_at ON ppas (updated_at);

CREATE TABLE ppa_procurement (
  ppa_id bigint PRIMARY KEY REFERENCES ppas (id) ON DELETE CASCADE,
  method text,
  method_details text,
  number_of_bidders integer,
  tender_start date,
  tender_end date,
  award_date date,
  procuring_entity text
);

CREATE TABLE ppa_versions (
  ppa_id bigint NOT NULL REFERENCES ppas (id) ON DELETE CASCADE,
  position integer NOT NULL,
  version integer NOT NULL,
  date date,
  summary text,
  PRIMARY KEY (ppa_id, position)
);

CREATE TABLE ppa_documents (
  ppa_id bigint NOT NULL REFERENCES ppas (id) ON DELETE CASCADE,
  position integer NOT NULL,
  title text NOT NULL,
  document_type text,
  url text,
  published_on date,
  format text,
  language text,
  PRIMARY KEY (ppa_id, position)
);

-- updated_at: now() on every insert or update, unless the statement sets it itself (an import that carries
-- its own timestamps); published_at: set when a PPA is first published.
CREATE FUNCTION ppas_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.updated_at := coalesce(NEW.updated_at, now());
  ELSIF NEW.updated_at IS NOT DISTINCT FROM OLD.updated_at THEN
    NEW.updated_at := now();
  END IF;
  IF NEW.published AND NEW.published_at IS NULL THEN
    NEW.published_at := NEW.updated_at;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER ppas_maintain BEFORE INSERT OR UPDATE ON ppas
  FOR EACH ROW EXECUTE FUNCTION ppas_maintain();

-- A change to a child row is a change to its PPA (except inside ppa_upsert_record, which sets updated_at itself).
CREATE FUNCTION ppa_child_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('ppa.importing', true) = 'on' THEN
    RETURN NULL;
  END IF;
  UPDATE ppas SET updated_at = now()
   WHERE id IN (
     CASE WHEN TG_OP = 'DELETE' THEN OLD.ppa_id ELSE NEW.ppa_id END,
     CASE WHEN TG_OP = 'UPDATE' THEN OLD.ppa_id END)
     AND updated_at IS DISTINCT FROM now();
  RETURN NULL;
END $$;

CREATE TRIGGER ppa_procurement_touch AFTER INSERT OR UPDATE OR DELETE ON ppa_procurement
  FOR EACH ROW EXECUTE FUNCTION ppa_child_touch();
CREATE TRIGGER ppa_versions_touch AFTER INSERT OR UPDATE OR DELETE ON ppa_versions
  FOR EACH ROW EXECUTE FUNCTION ppa_child_touch();
CREATE TRIGGER ppa_documents_touch AFTER INSERT OR UPDATE OR DELETE ON ppa_documents
  FOR EACH ROW EXECUTE FUNCTION ppa_child_touch();
