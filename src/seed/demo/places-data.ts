/**
 * Postcode districts the demo addresses are drawn from: real outward codes, post towns, counties,
 * approximate district centres and real street names. Inward codes are generated (valid format,
 * not necessarily a delivery point). Northwind Lettings covers Leeds and York, Southbank Estates
 * London.
 */

export type Region = 'leeds' | 'york' | 'london';

export interface District {
  region: Region;
  /** Outward code, e.g. LS6. */
  outward: string;
  /** Neighbourhood, for descriptions. */
  area: string;
  town: string;
  county: string | null;
  lat: number;
  lon: number;
  /** Relative share of the region's addresses. */
  weight: number;
  /** Share of addresses that are flats (Flat n / Apartment n in line2). */
  flats: number;
  streets: string[];
}

const WY = 'West Yorkshire';
const NY = 'North Yorkshire';
const GL = 'Greater London';

const d = (
  region: Region, outward: string, area: string, town: string, county: string | null,
  lat: number, lon: number, weight: number, flats: number, streets: string[],
): District => ({ region, outward, area, town, county, lat, lon, weight, flats, streets });

export const DISTRICTS: District[] = [
  d('leeds', 'LS1', 'City Centre', 'Leeds', WY, 53.7965, -1.5478, 3, 0.95, ['The Calls', 'Call Lane', 'Wellington Street', 'Whitehall Road', 'Park Square East']),
  d('leeds', 'LS2', 'Woodhouse', 'Leeds', WY, 53.803, -1.544, 3, 0.7, ['Clarendon Road', 'Blenheim Terrace', 'Woodhouse Lane', 'Lovell Park Road']),
  d('leeds', 'LS3', 'Burley', 'Leeds', WY, 53.802, -1.572, 2, 0.4, ['Burley Road', 'Westfield Road', 'Kirkstall Road']),
  d('leeds', 'LS4', 'Burley Park', 'Leeds', WY, 53.813, -1.586, 3, 0.2, ['Greenhow Road', 'Burley Lodge Road', 'Argie Avenue', 'Haddon Place']),
  d('leeds', 'LS5', 'Kirkstall', 'Leeds', WY, 53.817, -1.604, 2, 0.2, ['Kirkstall Lane', 'Broad Lane', 'Hawksworth Road']),
  d('leeds', 'LS6', 'Headingley', 'Leeds', WY, 53.821, -1.577, 6, 0.35, ['Cardigan Road', 'Otley Road', 'Headingley Lane', 'Ash Road', 'Brudenell Road', 'Estcourt Avenue', 'Royal Park Road', 'Manor Avenue']),
  d('leeds', 'LS7', 'Chapel Allerton', 'Leeds', WY, 53.825, -1.535, 4, 0.3, ['Harrogate Road', 'Stainbeck Lane', 'Montreal Avenue', 'Potternewton Lane', 'Town Street']),
  d('leeds', 'LS8', 'Roundhay', 'Leeds', WY, 53.828, -1.51, 4, 0.2, ['Street Lane', 'Oakwood Lane', 'Gledhow Wood Road', 'Harehills Lane', 'Roundhay Road']),
  d('leeds', 'LS9', 'Burmantofts', 'Leeds', WY, 53.8, -1.51, 3, 0.3, ['Easy Road', 'Shakespeare Avenue', 'Lupton Avenue', 'Torre Road']),
  d('leeds', 'LS10', 'Hunslet', 'Leeds', WY, 53.778, -1.535, 2, 0.4, ['Church Street', 'Balm Road', 'Belle Isle Road', 'Whitfield Way']),
  d('leeds', 'LS11', 'Beeston', 'Leeds', WY, 53.779, -1.562, 3, 0.15, ['Dewsbury Road', 'Cross Flatts Avenue', 'Tempest Road', 'Beeston Road', 'Lady Pit Lane']),
  d('leeds', 'LS12', 'Armley', 'Leeds', WY, 53.794, -1.6, 3, 0.15, ['Town Street', 'Tong Road', 'Armley Ridge Road', 'Wesley Road', 'Stanningley Road']),
  d('leeds', 'LS13', 'Bramley', 'Leeds', WY, 53.809, -1.645, 2, 0.1, ['Broad Lane', 'Hough Lane', 'Rodley Lane']),
  d('leeds', 'LS15', 'Cross Gates', 'Leeds', WY, 53.807, -1.455, 2, 0.1, ['Austhorpe Road', 'Station Road', 'Poole Crescent', 'Selby Road']),
  d('leeds', 'LS16', 'Adel', 'Leeds', WY, 53.845, -1.599, 2, 0.1, ['Holt Lane', 'Tinshill Road', 'Otley Old Road', 'Long Causeway']),
  d('leeds', 'LS17', 'Moortown', 'Leeds', WY, 53.86, -1.54, 2, 0.15, ['King Lane', 'Shadwell Lane', 'Alwoodley Lane', 'The Avenue']),
  d('leeds', 'LS18', 'Horsforth', 'Leeds', WY, 53.842, -1.64, 2, 0.15, ['Town Street', 'New Road Side', 'Long Row', 'Low Lane']),
  d('leeds', 'LS19', 'Yeadon', 'Leeds', WY, 53.865, -1.685, 1, 0.1, ['High Street', 'Henshaw Lane', 'Harper Lane']),
  d('leeds', 'LS20', 'Guiseley', 'Leeds', WY, 53.874, -1.712, 1, 0.1, ['Oxford Road', 'Kelcliffe Lane', 'Bradford Road']),
  d('leeds', 'LS21', 'Otley', 'Otley', WY, 53.905, -1.692, 1, 0.15, ['Bondgate', 'Westgate', 'Boroughgate', 'Courthouse Street']),
  d('leeds', 'LS22', 'Wetherby', 'Wetherby', WY, 53.928, -1.386, 1, 0.1, ['North Street', 'Deighton Road', 'Westgate']),
  d('leeds', 'LS25', 'Garforth', 'Leeds', WY, 53.793, -1.385, 1, 0.1, ['Main Street', 'Aberford Road', 'Lidgett Lane']),
  d('leeds', 'LS26', 'Rothwell', 'Leeds', WY, 53.748, -1.475, 1, 0.1, ['Commercial Street', 'Oulton Lane', 'Marsh Street']),
  d('leeds', 'LS27', 'Morley', 'Leeds', WY, 53.74, -1.6, 2, 0.1, ['Queen Street', 'Fountain Street', 'Bruntcliffe Road']),
  d('leeds', 'LS28', 'Pudsey', 'Pudsey', WY, 53.795, -1.665, 2, 0.1, ['Lowtown', 'Richardshaw Lane', 'Robin Lane']),
  d('leeds', 'LS29', 'Ilkley', 'Ilkley', WY, 53.925, -1.822, 1, 0.2, ['The Grove', 'Bolling Road', 'Cowpasture Road']),

  d('york', 'YO1', 'City Centre', 'York', NY, 53.959, -1.0815, 3, 0.6, ['Stonegate', 'Micklegate', 'Walmgate', 'Gillygate', 'Bishophill Senior']),
  d('york', 'YO10', 'Fulford', 'York', NY, 53.948, -1.06, 4, 0.3, ['Heslington Road', 'Hull Road', 'Fulford Road', 'Lawrence Street', 'Thief Lane']),
  d('york', 'YO23', 'South Bank', 'York', NY, 53.94, -1.09, 3, 0.15, ['Bishopthorpe Road', 'Scarcroft Road', 'Nunthorpe Road', 'Southlands Road']),
  d('york', 'YO24', 'Dringhouses', 'York', NY, 53.944, -1.115, 3, 0.15, ['Tadcaster Road', 'Holgate Road', 'Hamilton Drive', 'Acomb Road']),
  d('york', 'YO26', 'Acomb', 'York', NY, 53.965, -1.14, 2, 0.1, ['Boroughbridge Road', 'Poppleton Road', 'Carr Lane', 'Beckfield Lane']),
  d('york', 'YO30', 'Clifton', 'York', NY, 53.975, -1.095, 2, 0.2, ['Bootham', 'Water End', 'Shipton Road', 'Clifton']),
  d('york', 'YO31', 'Heworth', 'York', NY, 53.97, -1.065, 3, 0.2, ['Huntington Road', 'Heworth Green', 'Haxby Road', 'Park Grove', 'Stockton Lane']),
  d('york', 'YO32', 'Haxby', 'York', NY, 54.01, -1.075, 1, 0.05, ['The Village', 'York Road', 'Station Road']),

  d('london', 'SE1', 'Borough', 'London', GL, 51.501, -0.094, 4, 0.85, ['Borough High Street', 'Bermondsey Street', 'Tooley Street', 'Lower Marsh', 'Long Lane']),
  d('london', 'SE5', 'Camberwell', 'London', GL, 51.474, -0.091, 3, 0.6, ['Camberwell Grove', 'Denmark Hill', 'Grove Lane', 'Coldharbour Lane']),
  d('london', 'SE15', 'Peckham', 'London', GL, 51.469, -0.065, 4, 0.6, ['Rye Lane', 'Bellenden Road', "Queen's Road", 'Peckham Road', 'Choumert Road']),
  d('london', 'SE22', 'East Dulwich', 'London', GL, 51.456, -0.072, 2, 0.5, ['Lordship Lane', 'Northcross Road', 'Barry Road']),
  d('london', 'SW4', 'Clapham', 'London', GL, 51.462, -0.138, 2, 0.6, ['Clapham High Street', 'Abbeville Road', 'Clapham Manor Street']),
  d('london', 'SW9', 'Brixton', 'London', GL, 51.465, -0.115, 3, 0.7, ['Brixton Road', 'Coldharbour Lane', 'Stockwell Park Road', 'Loughborough Road']),
  d('london', 'SW11', 'Battersea', 'London', GL, 51.465, -0.165, 2, 0.6, ['Lavender Hill', 'Northcote Road', 'Battersea Park Road']),
  d('london', 'N1', 'Islington', 'London', GL, 51.538, -0.1, 3, 0.7, ['Upper Street', 'Essex Road', 'Canonbury Road', 'Barnsbury Street', 'Caledonian Road']),
  d('london', 'N16', 'Stoke Newington', 'London', GL, 51.562, -0.076, 2, 0.6, ['Stoke Newington Church Street', 'Albion Road', 'Manor Road']),
  d('london', 'E2', 'Bethnal Green', 'London', GL, 51.529, -0.06, 2, 0.75, ['Columbia Road', 'Bethnal Green Road', 'Cambridge Heath Road']),
  d('london', 'E5', 'Clapton', 'London', GL, 51.56, -0.055, 1, 0.6, ['Chatsworth Road', 'Lower Clapton Road', 'Rushmore Road']),
  d('london', 'E8', 'Hackney', 'London', GL, 51.543, -0.065, 3, 0.65, ['Mare Street', 'Dalston Lane', 'Richmond Road', 'Navarino Road']),
];

/** Branch locations (office), for "nearest branch". */
export const BRANCH_LOCATIONS: Record<'leeds' | 'york' | 'london', { lat: number; lon: number }> = {
  leeds: { lat: 53.7997, lon: -1.5492 },
  york: { lat: 53.959, lon: -1.0815 },
  london: { lat: 51.5034, lon: -0.0877 },
};

/** How many addresses each region gets (about 200 in all). */
export const ADDRESSES_PER_REGION: Record<Region, number> = { leeds: 85, york: 45, london: 70 };

/** Letters allowed in the last two characters of a UK postcode (no C, I, K, M, O, V). */
export const INWARD_LETTERS = 'ABDEFGHJLNPQRSTUWXYZ';
