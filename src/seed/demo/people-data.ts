/**
 * Names and companies for the demo tenants and contractors: common given names and surnames in
 * England (a realistic mix), and 30 contractor firms with their trades and home area.
 */
import type { Region } from './places-data.ts';

export const GIVEN_NAMES = [
  'Oliver', 'Jack', 'Harry', 'George', 'Noah', 'Charlie', 'Jacob', 'Thomas', 'James', 'William',
  'Daniel', 'Joshua', 'Samuel', 'Ryan', 'Liam', 'Adam', 'Mohammed', 'Ahmed', 'Bilal', 'Arjun',
  'Ravi', 'Kwame', 'Tomasz', 'Piotr', 'Luca', 'Callum', 'Connor', 'Lewis', 'Matthew', 'Ben',
  'Amelia', 'Olivia', 'Isla', 'Emily', 'Sophie', 'Jessica', 'Chloe', 'Grace', 'Lucy', 'Hannah',
  'Charlotte', 'Ella', 'Megan', 'Holly', 'Amy', 'Rachel', 'Laura', 'Sarah', 'Zara', 'Aisha',
  'Fatima', 'Priya', 'Ananya', 'Chiamaka', 'Abena', 'Agnieszka', 'Natalia', 'Freya', 'Niamh', 'Eleanor',
] as const;

export const SURNAMES = [
  'Smith', 'Jones', 'Taylor', 'Brown', 'Williams', 'Wilson', 'Johnson', 'Davies', 'Robinson', 'Wright',
  'Thompson', 'Evans', 'Walker', 'White', 'Roberts', 'Green', 'Hall', 'Wood', 'Jackson', 'Clarke',
  'Patel', 'Khan', 'Lewis', 'Harrison', 'Hughes', 'Edwards', 'Turner', 'Hill', 'Moore', 'Cooper',
  'Ward', 'Morris', 'King', 'Watson', 'Baker', 'Harris', 'Lee', 'Shaw', 'Atkinson', 'Holmes',
  'Hussain', 'Begum', 'Ali', 'Ahmed', 'Akhtar', 'Singh', 'Kaur', 'Sharma', 'Mensah', 'Okafor',
  'Adeyemi', 'Nowak', 'Kowalski', 'Wiśniewska', 'Murphy', "O'Brien", 'Kelly', 'Campbell', 'Stewart', 'Nguyen',
  'Bailey', 'Marshall', 'Pearson', 'Fletcher', 'Barker', 'Sutcliffe', 'Greenwood', 'Ackroyd', 'Haigh', 'Dobson',
] as const;

export interface ContractorSpec {
  company: string;
  /** Trade codes from the seeded trades table. */
  trades: string[];
  region: Region;
  /** Fixed contact name (the demo contractor account); otherwise drawn at random. */
  contact?: string;
  email?: string;
}

/** The demo contractor account's firm (contractor@northwind.test). */
export const FLETCHER = 'Fletcher Gas & Heating';

export const CONTRACTORS: ContractorSpec[] = [
  { company: FLETCHER, trades: ['gas', 'heating', 'plumbing'], region: 'leeds', contact: 'Dave Fletcher', email: 'contractor@northwind.test' },
  { company: 'Headingley Plumbing & Heating Ltd', trades: ['plumbing', 'heating'], region: 'leeds' },
  { company: 'Aire Valley Electrical Services', trades: ['electrical'], region: 'leeds' },
  { company: 'Kirkstall Roofing & Guttering', trades: ['roofing'], region: 'leeds' },
  { company: 'White Rose Locksmiths', trades: ['locksmith', 'glazing'], region: 'leeds' },
  { company: 'Armley Drain Services', trades: ['drainage'], region: 'leeds' },
  { company: 'Pennine Pest Control', trades: ['pest_control'], region: 'leeds' },
  { company: 'Sparkle Property Cleaning (Leeds)', trades: ['cleaning'], region: 'leeds' },
  { company: 'Chapel Allerton Joinery', trades: ['carpentry', 'general_maintenance'], region: 'leeds' },
  { company: 'DryHome Damp Solutions', trades: ['damp_and_mould', 'decorating'], region: 'leeds' },
  { company: 'Leeds Appliance Repairs', trades: ['appliance_repair'], region: 'leeds' },
  { company: 'Roundhay Decorators', trades: ['decorating', 'general_maintenance'], region: 'leeds' },
  { company: 'Calder Gas Services Ltd', trades: ['gas', 'heating'], region: 'leeds' },
  { company: 'Minster Plumbing & Gas', trades: ['plumbing', 'gas', 'heating'], region: 'york' },
  { company: 'Ouse Electrical Contractors', trades: ['electrical', 'appliance_repair'], region: 'york' },
  { company: 'Shambles Handyman Services', trades: ['general_maintenance', 'carpentry', 'decorating'], region: 'york' },
  { company: 'York Glass & Glazing', trades: ['glazing', 'locksmith'], region: 'york' },
  { company: 'Vale of York Roofing', trades: ['roofing', 'drainage'], region: 'york' },
  { company: 'Walmgate Cleaning Co', trades: ['cleaning', 'pest_control'], region: 'york' },
  { company: 'Ryedale Damp Proofing', trades: ['damp_and_mould'], region: 'york' },
  { company: 'Peckham Plumbing & Heating Ltd', trades: ['plumbing', 'heating', 'drainage'], region: 'london' },
  { company: 'Borough Gas Safe Engineers', trades: ['gas', 'heating'], region: 'london' },
  { company: 'Brixton Electrical Ltd', trades: ['electrical', 'appliance_repair'], region: 'london' },
  { company: 'Thames Roofing & Glazing', trades: ['roofing', 'glazing'], region: 'london' },
  { company: 'Islington Locksmiths', trades: ['locksmith', 'carpentry'], region: 'london' },
  { company: 'Hackney Handyman Co', trades: ['general_maintenance', 'carpentry', 'decorating'], region: 'london' },
  { company: 'Southwark Pest Control', trades: ['pest_control'], region: 'london' },
  { company: 'Capital Void Cleaning', trades: ['cleaning'], region: 'london' },
  { company: 'London Damp & Mould Specialists', trades: ['damp_and_mould', 'decorating'], region: 'london' },
  { company: 'Camberwell Drainage Services', trades: ['drainage', 'plumbing'], region: 'london' },
];

/** How many tenants each agency gets (150 in all). */
export const TENANTS_PER_AGENCY = { northwind: 100, southbank: 50 } as const;
