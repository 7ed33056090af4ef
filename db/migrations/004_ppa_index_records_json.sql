-- The reference view builds its record as json instead of jsonb: the same content, a third less of the
-- database's time. Reading all 100k rows of the benchmark's records (record::text) took 3.9 s with the jsonb
-- functions and 2.6 s with these (docs/record.md): jsonb parses every nested object again into its binary form,
-- sorts its keys and prints it back, while json only concatenates text. The indexer reads record::text, so
-- either type serves; the keys keep the order written here.
-- The column's type changes, which CREATE OR REPLACE VIEW cannot do; DROP fails (and the migration with it) if an
-- operator built a view of their own on this one.
DROP VIEW ppa_index_records;

CREATE VIEW ppa_index_records AS
SELECT
  p.slug,
  p.updated_at,
  json_build_object(
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
    'risk_features', to_json(p.risk_features),
    'published', p.published,
    'active', p.active,
    'published_at', ppa_rfc3339(p.published_at),
    'updated_at', ppa_rfc3339(p.updated_at),
    'offtaker', json_build_object('name', p.offtaker_name, 'type', p.offtaker_type),
    'contract', json_build_object(
      'signed_date', p.contract_signed_date,
      'term_years', p.contract_term_years,
      'cod_date', p.contract_cod_date,
      'currency', p.contract_currency,
      'energy_rate_per_kwh', p.contract_energy_rate_per_kwh,
      'capacity_rate_per_kw_month', p.contract_capacity_rate_per_kw_month),
    'fiscal', json_build_object(
      'annual_payment_obligation_usd', p.fiscal_annual_payment_obligation_usd,
      'guaranteed_amount_usd', p.fiscal_guaranteed_amount_usd,
      'termination_payment_usd', p.fiscal_termination_payment_usd),
    'procurement', (
      SELECT json_build_object(
        'method', pr.method,
        'method_details', pr.method_details,
        'number_of_bidders', pr.number_of_bidders,
        'tender_start', pr.tender_start,
        'tender_end', pr.tender_end,
        'award_date', pr.award_date,
        'procuring_entity', pr.procuring_entity)
      FROM ppa_procurement pr WHERE pr.ppa_id = p.id),
    'versions', coalesce((
      SELECT json_agg(json_build_object('version', v.version, 'date', v.date, 'summary', v.summary)
                       ORDER BY v.position)
      FROM ppa_versions v WHERE v.ppa_id = p.id), '[]'::json),
    'documents', coalesce((
      SELECT json_agg(json_build_object(
               'title', d.title,
               'document_type', d.document_type,
               'url', d.url,
               'published_on', d.published_on,
               'format', d.format,
               'language', d.language) ORDER BY d.position)
      FROM ppa_documents d WHERE d.ppa_id = p.id), '[]'::json)
  ) AS record
FROM ppas p;
