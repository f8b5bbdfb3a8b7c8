/**
 * What demo jobs are about: titles and descriptions a letting agent would recognise, per trade,
 * with a priority (1 = emergency .. 5 = low) and job type consistent with the title, a cost range
 * in pounds, and hints (void works have no tenant; some jobs are seasonal).
 * Job types: 1 reactive repair, 2 emergency, 3 planned maintenance, 4 inspection,
 * 5 compliance check, 6 void works.
 */

export interface JobTemplate {
  trade: string;
  title: string;
  descriptions: string[];
  priority: 1 | 2 | 3 | 4 | 5;
  jobType: 1 | 2 | 3 | 4 | 5 | 6;
  /** Cost range in whole pounds. */
  cost: [number, number];
  /** Relative frequency. */
  weight: number;
  /** Void works: the property is between tenancies, so the job has no tenant. */
  void?: boolean;
  season?: 'winter' | 'summer';
}

const t = (
  trade: string, title: string, priority: JobTemplate['priority'], jobType: JobTemplate['jobType'],
  cost: [number, number], weight: number, descriptions: string[], extra: Partial<JobTemplate> = {},
): JobTemplate => ({ trade, title, priority, jobType, cost, weight, descriptions, ...extra });

export const JOB_TEMPLATES: JobTemplate[] = [
  t('gas', 'Boiler not firing', 2, 1, [120, 450], 5, ['Tenant reports the boiler will not ignite and shows fault code F28. No heating or hot water since this morning.', 'Combi boiler keeps locking out. Tenant has tried resetting it twice without success.'], { season: 'winter' }),
  t('gas', 'Smell of gas in kitchen', 1, 2, [95, 260], 1, ['Tenant reports a strong smell of gas near the hob. Advised to turn off at the meter and ventilate; National Gas Emergency Service called and the supply made safe. Engineer needed to trace the leak.']),
  t('gas', 'Annual gas safety check (CP12)', 3, 5, [85, 110], 6, ['Annual landlord gas safety record due. Boiler, hob and flues to be checked; copy of the CP12 to the tenant within 28 days.']),
  t('gas', 'No hot water', 2, 1, [110, 380], 3, ['Heating works but no hot water from any tap. Boiler display shows no fault.', 'Hot water runs cold after a few seconds. Tenant has a young baby.'], { season: 'winter' }),
  t('gas', 'Boiler losing pressure', 3, 1, [95, 320], 3, ['Pressure gauge drops below 0.5 bar every couple of days. Tenant has been repressurising it. Possible leak on the system or a faulty expansion vessel.']),
  t('gas', 'Gas hob igniter not working', 4, 1, [85, 160], 1, ['Two of the four rings will not light with the igniter; tenant is using matches.']),
  t('gas', 'Annual boiler service', 4, 3, [85, 120], 2, ['Annual service per manufacturer warranty. Please combine with the gas safety check if one is due.']),
  t('heating', 'Radiator cold at the top', 4, 1, [85, 140], 3, ['Living room radiator is only warm at the bottom. Likely needs bleeding or the system balancing.'], { season: 'winter' }),
  t('heating', 'No heating in flat', 2, 1, [120, 480], 3, ['No radiators coming on. Hot water is fine. Thermostat shows calling for heat.', 'Heating stopped working overnight; outside temperature below freezing. Tenant is elderly.'], { season: 'winter' }),
  t('heating', 'Thermostat not responding', 3, 1, [95, 220], 2, ['Wireless room thermostat display is blank after replacing the batteries. Heating only works on the boiler override.']),
  t('heating', 'Radiator valve leaking', 3, 1, [85, 180], 2, ['Water dripping from the valve on the bedroom radiator; tenant has put a towel down. Carpet getting wet.']),
  t('plumbing', 'Leaking kitchen tap', 4, 1, [85, 160], 5, ['Kitchen mixer tap drips constantly and the base leaks into the cupboard when in use.']),
  t('plumbing', 'Toilet cistern running constantly', 4, 1, [85, 150], 4, ['Toilet keeps running into the pan after flushing. Fill valve or flush valve washer likely worn.']),
  t('plumbing', 'Leak from ceiling below bathroom', 2, 1, [180, 650], 3, ['Water stain spreading on the kitchen ceiling directly below the bathroom, dripping when the shower is used. Please trace and repair, then report on making good.']),
  t('plumbing', 'Burst pipe under kitchen sink', 1, 2, [150, 450], 1, ['Tenant reports water pouring from a pipe under the sink. Stopcock turned off; no water to the property until repaired.'], { season: 'winter' }),
  t('plumbing', 'Low water pressure to shower', 4, 1, [85, 260], 2, ['Shower is barely a trickle; taps are fine. Tenant has descaled the shower head.']),
  t('plumbing', 'Shower mixer not working', 3, 1, [110, 340], 2, ['Thermostatic mixer only runs cold. Cartridge may need replacing.']),
  t('plumbing', 'Washing machine waste pipe leaking', 3, 1, [85, 160], 2, ['Water on the kitchen floor every time the washing machine drains. The waste connection under the sink seems loose.']),
  t('plumbing', 'Legionella risk assessment', 4, 5, [85, 140], 2, ['Legionella risk assessment required before the tenancy renewal. Check cold water storage, flush little-used outlets, record temperatures.']),
  t('electrical', 'EICR inspection', 3, 5, [150, 260], 4, ['Electrical Installation Condition Report due (five-yearly). Copy to the tenant and the landlord; list any C1/C2 items with a quote.']),
  t('electrical', 'Sockets in kitchen not working', 2, 1, [95, 280], 3, ['All sockets on the kitchen ring dead; the RCD trips straight away when reset. Tenant has unplugged everything.']),
  t('electrical', 'RCD keeps tripping', 2, 1, [95, 320], 2, ['Consumer unit RCD trips several times a day, usually when the kettle or shower is on.']),
  t('electrical', 'No power to property', 1, 2, [120, 420], 1, ['Tenant has no power at all. Neighbours have power, so not a network cut. Main switch will not stay on.']),
  t('electrical', 'Replace broken light fitting in hallway', 5, 1, [85, 140], 2, ['Hallway ceiling light fitting cracked and hanging loose. Please replace like for like.']),
  t('electrical', 'Smoke alarm chirping', 3, 1, [85, 140], 2, ['Mains-wired smoke alarm on the landing chirps every minute. Tenant cannot silence it. Check the back-up battery and the interlink.']),
  t('electrical', 'Bathroom extractor fan not working', 4, 1, [95, 220], 3, ['Extractor fan in the bathroom does not run; condensation building up on the ceiling.']),
  t('electrical', 'Smoke and CO alarm test', 4, 5, [85, 110], 1, ['Check smoke alarms on every storey and the CO alarm by the boiler, as required at the start of a tenancy.']),
  t('roofing', 'Slipped roof tiles after storm', 2, 1, [220, 900], 2, ['Several tiles have slipped on the rear roof slope after the storm; one on the path. Check for water ingress and make safe.'], { season: 'winter' }),
  t('roofing', 'Gutter overflowing at rear', 4, 1, [95, 280], 3, ['Rear gutter overflows in heavy rain and runs down the wall. Probably blocked with leaves or moss.']),
  t('roofing', 'Water coming through bedroom ceiling in heavy rain', 2, 1, [250, 1200], 2, ['Damp patch and drips from the bedroom ceiling during heavy rain. Bucket in place. Inspect the roof above and quote for repair.']),
  t('roofing', 'Flat roof on kitchen extension leaking', 3, 1, [450, 2400], 1, ['Felt roof on the single-storey extension is cracked and leaking at the joint with the main wall. Quote to re-cover if repair is not viable.']),
  t('carpentry', 'Kitchen cupboard door hanging off', 5, 1, [85, 140], 3, ['Hinge pulled out of the cupboard door under the sink. Chipboard damaged around the hinge.']),
  t('carpentry', 'Bedroom door not closing', 5, 1, [85, 130], 2, ['Bedroom door catches on the frame and will not latch. Needs easing and the keep adjusting.']),
  t('carpentry', 'Loose stair banister', 3, 1, [95, 260], 1, ['Banister rail on the stairs is loose and moves when leant on. Safety issue; tenant has small children.']),
  t('carpentry', 'Rotten window sill in lounge', 4, 1, [150, 480], 1, ['Timber sill on the bay window is soft and rotten at one end. Repair with resin or replace.']),
  t('glazing', 'Cracked double glazing unit in living room', 3, 1, [180, 450], 2, ['Inner pane of the living room window is cracked across the corner. Measure and replace the sealed unit.']),
  t('glazing', 'Misted double glazed window', 5, 1, [150, 320], 2, ['Bedroom window has misted between the panes; the seal has failed.']),
  t('glazing', 'Window broken after attempted break-in', 1, 2, [150, 520], 1, ['Ground-floor window smashed overnight; police attended (crime reference provided by the tenant). Board up today, then replace the unit.']),
  t('glazing', 'Window handle broken, will not lock', 3, 1, [85, 140], 2, ['uPVC window handle snapped in the bedroom; window cannot be locked shut.']),
  t('locksmith', 'Front door lock sticking', 3, 1, [85, 180], 3, ['Key is very stiff in the front door lock and sometimes will not turn. Tenant worried about being locked out.']),
  t('locksmith', 'Tenant locked out', 2, 2, [95, 200], 1, ['Tenant locked out with keys inside; office closed. Gain entry and replace the cylinder if it has to be drilled.']),
  t('locksmith', 'uPVC door mechanism failed', 2, 1, [150, 380], 2, ['Handle on the back door turns freely and the door will not lock. Multipoint gearbox likely failed.']),
  t('locksmith', 'Change locks at end of tenancy', 3, 6, [95, 180], 2, ['Change the front and back door cylinders before the new tenancy starts. Leave three sets of keys at the office.'], { void: true }),
  t('drainage', 'Blocked shower drain', 3, 1, [85, 150], 3, ['Shower tray drains very slowly and smells. Tenant has tried a plunger.']),
  t('drainage', 'Blocked kitchen sink', 3, 1, [85, 150], 3, ['Kitchen sink not draining at all; water backing up into the second bowl.']),
  t('drainage', 'Toilet blocked', 2, 1, [85, 180], 2, ['Only toilet in the property is blocked and close to overflowing. Tenant has tried a plunger.']),
  t('drainage', 'Outside drain overflowing', 2, 1, [120, 380], 2, ['Inspection chamber in the back yard is overflowing; sewage smell. Jet the drain and CCTV survey if it recurs.']),
  t('drainage', 'CCTV drain survey', 4, 4, [150, 280], 1, ['Recurring blockages over the last year. CCTV survey of the main run with a report and recommendations.']),
  t('pest_control', 'Mice in kitchen', 3, 1, [95, 220], 2, ['Tenant has seen mice and droppings in the kitchen cupboards. Treatment and proofing of entry points.'], { season: 'winter' }),
  t('pest_control', "Wasps' nest in loft", 3, 1, [85, 140], 2, ['Lots of wasps going in and out under the eaves above the bedroom window.'], { season: 'summer' }),
  t('pest_control', 'Bedbugs reported', 2, 1, [250, 600], 1, ['Tenant reports bites and has found bedbugs in the mattress seams. Heat or chemical treatment, two visits.']),
  t('pest_control', 'Pigeons nesting on balcony', 4, 1, [150, 400], 1, ['Pigeons nesting behind the balcony planters; mess building up. Clean and fit netting or spikes.']),
  t('cleaning', 'Void clean before new tenancy', 4, 6, [180, 420], 4, ['Full clean before the new tenant moves in: kitchen including oven, bathroom descale, windows inside, floors.'], { void: true }),
  t('cleaning', 'Carpet clean at end of tenancy', 4, 6, [120, 280], 2, ['Hot water extraction clean of all carpets after check-out; stain on the lounge carpet noted in the inventory.'], { void: true }),
  t('cleaning', 'Communal areas clean', 5, 3, [85, 160], 1, ['Monthly clean of the communal hallway and stairs, including the bin store.']),
  t('general_maintenance', 'Fence panel blown down', 4, 1, [95, 320], 2, ['Two fence panels down in the back garden after high winds; posts look sound.'], { season: 'winter' }),
  t('general_maintenance', 'Garden overgrown at void property', 4, 6, [120, 350], 1, ['Cut back the garden, mow and remove waste before viewings start.'], { void: true, season: 'summer' }),
  t('general_maintenance', 'Reseal bath and shower', 4, 1, [85, 150], 3, ['Silicone around the bath is black with mould and coming away; water getting behind the panel.']),
  t('general_maintenance', 'Mid-term property inspection', 4, 4, [85, 120], 2, ['Routine mid-tenancy inspection with photos; note any maintenance needed and check smoke alarms.']),
  t('general_maintenance', 'Loft hatch stuck', 5, 1, [85, 130], 1, ['Loft hatch swollen and will not open; tenant needs access to stored items.']),
  t('decorating', 'Repaint bedroom after damp treatment', 5, 3, [220, 650], 1, ['Damp treatment finished; stain-block and repaint walls and ceiling in the front bedroom.']),
  t('decorating', 'Touch-up decoration before new tenancy', 4, 6, [180, 750], 2, ['Fill and paint scuffed walls in the hall and lounge; paint the kitchen ceiling.'], { void: true }),
  t('decorating', 'Repaint ceiling stain after leak', 5, 1, [120, 300], 1, ['Leak from the bathroom above fixed. Stain-block and repaint the kitchen ceiling.']),
  t('damp_and_mould', 'Damp patch on bedroom ceiling', 3, 1, [150, 600], 3, ['Grey damp patch growing in the corner of the bedroom ceiling, below the roof. Investigate the cause and report.'], { season: 'winter' }),
  t('damp_and_mould', 'Black mould in bathroom', 2, 1, [120, 450], 3, ['Black mould spreading on the bathroom ceiling and around the window. Tenant reports a child with asthma. Treat and investigate ventilation.'], { season: 'winter' }),
  t('damp_and_mould', 'Condensation and mould around windows', 3, 1, [95, 320], 2, ['Heavy condensation every morning and mould on the window reveals in both bedrooms.'], { season: 'winter' }),
  t('damp_and_mould', 'Rising damp in living room wall', 3, 1, [450, 2400], 1, ['Plaster blown and salts on the lower part of the living room wall. Survey and quote for a damp-proof course and replastering.']),
  t('damp_and_mould', 'Damp and mould survey', 3, 4, [150, 300], 1, ['Tenant complaint about damp. Independent survey with moisture readings and a report within 14 days.']),
  t('appliance_repair', 'Oven not heating', 3, 1, [85, 220], 3, ['Fan oven light and fan come on but it does not heat. Grill works. Likely the element.']),
  t('appliance_repair', 'Fridge freezer not cooling', 2, 1, [95, 320], 2, ['Fridge section warm, freezer still working. Tenant has lost food; please attend quickly.'], { season: 'summer' }),
  t('appliance_repair', 'Washing machine not draining', 3, 1, [85, 220], 3, ['Washing machine stops mid-cycle with water in the drum and error E21.']),
  t('appliance_repair', 'Dishwasher leaking', 3, 1, [85, 240], 1, ['Water seeping from under the dishwasher door during the wash cycle.']),
];

/** Access notes added to some descriptions. */
export const ACCESS_NOTES = [
  'Tenant works from home on Tuesdays and Thursdays.',
  'Please call the tenant 30 minutes before arriving.',
  'Keys available from the branch office.',
  'Dog at the property; tenant will keep it in the garden.',
  'Parking permit zone; use the visitor permit from the office.',
  'Tenant asks for a morning appointment if possible.',
  'Access via the rear gate.',
  'Intercom is broken; phone the tenant on arrival.',
];
