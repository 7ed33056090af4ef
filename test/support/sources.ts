// Index _source fixtures for the presenter tests: one list source of a real-looking PPA.
import type { ListSource } from '../../indexContract/sourceFields.js';

export const BASE = 'https://api.example.org';

export const listSource: ListSource = {
  slug: 'kahone-solar',
  project_name: 'Kahone Solar',
  developer: 'Engie / Meridiam',
  reference_code: 'SN-SOL-2018-001',
  location: 'Kaolack, Senegal',
  country_code: 'SN',
  technology: 'solar_pv',
  tariff: 'energy_only',
  capacity_mw: 60,
  financial_close_year: 2018,
  risk_features: ['government_guarantee'],
  flags: [],
  published_at: '2024-03-01T12:00:00Z',
  updated_at: '2024-06-02T08:30:00.000Z',
};
