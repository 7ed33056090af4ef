-- The relation the indexer reads (docs/record.md, "PostgreSQL"): slug, updated_at, and the whole source record
-- assembled as mappings/record.schema.json wants it. Timestamps are RFC 3339 in UTC, with microseconds only
-- when there are any.

CREATE FUNCTION ppa_rfc3339(value timestamptz) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT to_char(value AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS')
      || CASE WHEN date_part('microseconds', value)::bigint % 1000000 = 0 THEN ''
              ELSE to_char(value AT TIME ZONE 'UTC', '.US') END
      || 'Z'
$$;

CREATE VIEW ppa_index_records AS
SELECT
  p.slug,
  p.updated_at,
  jsonb_build_object(
    'slug', p.slug,
    'reference_code', p.reference_code,
    'project_name', p.project_name,
    'developer', p.developer,
    'location', p.location,
    'country_code', p.country_code,
    'technology', p.technology,
    'tariff', p.tariff,
    'capacity_mw', p.capacity_mw,
    'financial_close_year', p.financial_close_year,
    'risk_features', to_jsonb(p.risk_features),
    'published', p.published,
    'active', p.active,
    'published_at', ppa_rfc3339(p.published_at),
    'updated_at', ppa_rfc3339(p.updated_at),
    'offtaker', jsonb_build_object('name', p.offtaker_name, 'type', p.offtaker_type),
    'contract', jsonb_build_object(
      'signed_date', p.contract_signed_date,
      'term_years', p.contract_term_years,
      'cod_date', p.contract_cod_date,
      'currency', p.contract_currency,
      'energy_rate_per_kwh', p.contract_energy_rate_per_kwh,
      'capacity_rate_per_kw_month', p.contract_capacity_rate_per_kw_month),
    'fiscal', jsonb_build_object(
      'annual_payment_obligation_usd', p.fiscal_annual_payment_obligation_usd,
      'guaranteed_amount_usd', p.fiscal_guaranteed_amount_usd,
      'termination_payment_usd', p.fiscal_termination_payment_usd),
    'procurement', (
      SELECT jsonb_build_object(
        'method', pr.method,
        'method_details', pr.method_details,
        'number_of_bidders', pr.number_of_bidders,
        'tender_start', pr.tender_start,
        'tender_end', pr.tender_end,
        'award_date', pr.award_date,
        'procuring_entity', pr.procuring_entity)
      FROM ppa_procurement pr WHERE pr.ppa_id = p.id),
    'versions', coalesce((
      SELECT jsonb_agg(jsonb_build_object('version', v.version, 'date', v.date, 'summary', v.summary)
                       ORDER BY v.position)
      FROM ppa_versions v WHERE v.ppa_id = p.id), '[]'::jsonb),
    'documents', coalesce((
      SELECT jsonb_agg(jsonb_build_object(
               'title', d.title,
               'document_type', d.document_type,
               'url', d.url,
               'published_on', d.published_on,
               'format', d.format,
               'language', d.language) ORDER BY d.position)
      FROM ppa_documents d WHERE d.ppa_id = p.id), '[]'::jsonb)
  ) AS record
FROM ppas p;

-- The reverse, for imports (npm run db:seed) and tests: writes one source record into the tables, replacing the
-- PPA with the same slug, and keeps the record's own updated_at.
CREATE FUNCTION ppa_upsert_record(r jsonb) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  ppa bigint;
BEGIN
  -- The children's touch triggers would move updated_at once per row; the record carries its own.
  PERFORM set_config('ppa.importing', 'on', true);
  INSERT INTO ppas (slug, reference_code, project_name, developer, location, country_code, technology, tariff,
                    capacity_mw, financial_close_year, risk_features, published, active, published_at,
                    updated_at, offtaker_name, offtaker_type, contract_signed_date, contract_term_years,
                    contract_cod_date, contract_currency, contract_energy_rate_per_kwh,
                    contract_capacity_rate_per_kw_month, fiscal_annual_payment_obligation_usd,
                    fiscal_guaranteed_amount_usd, fiscal_termination_payment_usd)
  VALUES (r->>'slug', r->>'reference_code', r->>'project_name', r->>'developer', r->>'location',
          r->>'country_code', r->>'technology', r->>'tariff', (r->>'capacity_mw')::numeric,
          (r->>'financial_close_year')::integer,
          coalesce(ARRAY(SELECT jsonb_array_elements_text(r->'risk_features')), '{}'),
          (r->>'published')::boolean, (r->>'active')::boolean, (r->>'published_at')::timestamptz,
          (r->>'updated_at')::timestamptz, r#>>'{offtaker,name}', r#>>'{offtaker,type}',
          (r#>>'{contract,signed_date}')::date, (r#>>'{contract,term_years}')::integer,
          (r#>>'{contract,cod_date}')::date, r#>>'{contract,currency}',
          (r#>>'{contract,energy_rate_per_kwh}')::numeric,
          (r#>>'{contract,capacity_rate_per_kw_month}')::numeric,
          (r#>>'{fiscal,annual_payment_obligation_usd}')::numeric,
          (r#>>'{fiscal,guaranteed_amount_usd}')::numeric,
          (r#>>'{fiscal,termination_payment_usd}')::numeric)
  ON CONFLICT (slug) DO UPDATE SET
    reference_code = EXCLUDED.reference_code, project_name = EXCLUDED.project_name,
    developer = EXCLUDED.developer, location = EXCLUDED.location, country_code = EXCLUDED.country_code,
    technology = EXCLUDED.technology, tariff = EXCLUDED.tariff, capacity_mw = EXCLUDED.capacity_mw,
    financial_close_year = EXCLUDED.financial_close_year, risk_features = EXCLUDED.risk_features,
    published = EXCLUDED.published, active = EXCLUDED.active, published_at = EXCLUDED.published_at,
    updated_at = EXCLUDED.updated_at,
    offtaker_name = EXCLUDED.offtaker_name, offtaker_type = EXCLUDED.offtaker_type,
    contract_signed_date = EXCLUDED.contract_signed_date, contract_term_years = EXCLUDED.contract_term_years,
    contract_cod_date = EXCLUDED.contract_cod_date, contract_currency = EXCLUDED.contract_currency,
    contract_energy_rate_per_kwh = EXCLUDED.contract_energy_rate_per_kwh,
    contract_capacity_rate_per_kw_month = EXCLUDED.contract_capacity_rate_per_kw_month,
    fiscal_annual_payment_obligation_usd = EXCLUDED.fiscal_annual_payment_obligation_usd,
    fiscal_guaranteed_amount_usd = EXCLUDED.fiscal_guaranteed_amount_usd,
    fiscal_termination_payment_usd = EXCLUDED.fiscal_termination_payment_usd
  RETURNING id INTO ppa;

  DELETE FROM ppa_procurement WHERE ppa_id = ppa;
  DELETE FROM ppa_versions WHERE ppa_id = ppa;
  DELETE FROM ppa_documents WHERE ppa_id = ppa;
  IF jsonb_typeof(r->'procurement') = 'object' THEN
    INSERT INTO ppa_procurement (ppa_id, method, method_details, number_of_bidders, tender_start, tender_end,
                                 award_date, procuring_entity)
    VALUES (ppa, r#>>'{procurement,method}', r#>>'{procurement,method_details}',
            (r#>>'{procurement,number_of_bidders}')::integer, (r#>>'{procurement,tender_start}')::date,
            (r#>>'{procurement,tender_end}')::date, (r#>>'{procurement,award_date}')::date,
            r#>>'{procurement,procuring_entity}');
  END IF;
  INSERT INTO ppa_versions (ppa_id, position, version, date, summary)
  SELECT ppa, e.n, (e.v->>'version')::integer, (e.v->>'date')::date, e.v->>'summary'
    FROM jsonb_array_elements(coalesce(r->'versions', '[]')) WITH ORDINALITY AS e(v, n);
  INSERT INTO ppa_documents (ppa_id, position, title, document_type, url, published_on, format, language)
  SELECT ppa, e.n, e.d->>'title', e.d->>'document_type', e.d->>'url', (e.d->>'published_on')::date,
         e.d->>'format', e.d->>'language'
    FROM jsonb_array_elements(coalesce(r->'documents', '[]')) WITH ORDINALITY AS e(d, n);
  -- A re-import with an unchanged updated_at was moved to now() by the ppas trigger: the record's own wins.
  UPDATE ppas SET updated_at = (r->>'updated_at')::timestamptz
   WHERE id = ppa AND updated_at IS DISTINCT FROM (r->>'updated_at')::timestamptz;
  PERFORM set_config('ppa.importing', 'off', true);
  RETURN ppa;
END $$;
