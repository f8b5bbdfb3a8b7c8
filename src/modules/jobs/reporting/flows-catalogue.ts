/**
 * The UK triage flows every agency starts with (docs/tenant-reporting.md "The seeded flows"):
 * gas smell, heating and hot water (boiler pressure top-up), leaks, electrics (tripped switch or
 * RCD, power cut), doors and locks, damp and mould, appliances and pests. An agency's admin edits
 * them into new versions; the seed only fills in the codes an agency lacks.
 */
import type { FlowTree, JobPreset } from './flow-tree.ts';

/** The National Gas Emergency number (England, Scotland and Wales). */
export const GAS_EMERGENCY_NUMBER = '0800 111 999';

const job = (title: string, trade: string, priority: number, photos: string[] = [], jobType = priority === 1 ? 'emergency' : 'reactive_repair'): JobPreset =>
  ({ title, trade, job_type: jobType, priority, photos });

/** One seeded flow: code, name and its first version's tree. */
export interface SeedFlow {
  code: string;
  name: string;
  tree: FlowTree;
}

export const UK_FLOWS: SeedFlow[] = [
  {
    code: 'gas_smell',
    name: 'Smell of gas',
    tree: {
      start: 'gas_emergency',
      nodes: [
        {
          id: 'gas_emergency', kind: 'emergency', title: 'Gas emergency: leave the property now',
          instruction:
            'Do not use light switches, doorbells or anything electrical, and do not smoke or light a flame. ' +
            'If it is safe, turn the gas off at the meter and open doors and windows. Leave the property and, from outside, ' +
            `call the National Gas Emergency number ${GAS_EMERGENCY_NUMBER} (free, 24 hours). Do not wait for us: ` +
            'we have raised an emergency job and told our on-call contact.',
          phone: GAS_EMERGENCY_NUMBER,
          job: job('Smell of gas reported', 'gas', 1),
        },
      ],
    },
  },
  {
    code: 'heating',
    name: 'Heating and hot water',
    tree: {
      start: 'what',
      nodes: [
        {
          id: 'what', kind: 'question', text: 'What is wrong?',
          options: [
            { id: 'none', label: 'No heating and no hot water', next: 'pressure' },
            { id: 'heating', label: 'No heating, but hot water works', next: 'radiators' },
            { id: 'hot_water', label: 'No hot water, but heating works', next: 'job_hot_water' },
            { id: 'leak_noise', label: 'The boiler is leaking or making loud noises', next: 'job_boiler_fault' },
          ],
        },
        {
          id: 'pressure', kind: 'question', help: 'Look at the pressure gauge on the front of the boiler (or its display).',
          text: 'Is the boiler pressure below 1 bar?',
          options: [
            { id: 'yes', label: 'Yes, below 1 bar', next: 'top_up' },
            { id: 'no', label: 'No, between 1 and 2 bar', next: 'job_boiler' },
            { id: 'unsure', label: 'I cannot find or read it', next: 'job_boiler' },
          ],
        },
        {
          id: 'top_up', kind: 'question',
          help:
            'Top up the pressure: find the filling loop under the boiler (usually a silver hose with a tap at each end, or a key). ' +
            'Open the taps slowly until the gauge reads 1 to 1.5 bar, close both taps, then press the boiler\'s reset button. ' +
            'Your boiler\'s manual shows where the loop is.',
          text: 'Did the heating and hot water come back?',
          options: [
            { id: 'yes', label: 'Yes, it is working now', next: 'advice_pressure' },
            { id: 'no', label: 'No, or the pressure drops again', next: 'job_boiler_pressure' },
          ],
        },
        {
          id: 'radiators', kind: 'question',
          help: 'Check the thermostat is set above room temperature and the programmer is switched on. If radiators are cold at the top and warm at the bottom, bleed them with a radiator key.',
          text: 'Is the heating working after these checks?',
          options: [
            { id: 'yes', label: 'Yes, it is working now', next: 'advice_heating' },
            { id: 'no', label: 'No, still no heating', next: 'job_heating' },
          ],
        },
        { id: 'advice_pressure', kind: 'advice', title: 'Fixed by topping up the pressure', text: 'Good. If the pressure keeps dropping below 1 bar over the next few days there may be a leak: report it again and we will send an engineer.' },
        { id: 'advice_heating', kind: 'advice', title: 'Heating back on', text: 'Good. Keep the thermostat at a steady temperature; bleeding radiators once a year keeps them warm.' },
        { id: 'job_boiler', kind: 'job', title: 'A heating engineer will visit', job: job('No heating or hot water: boiler not working', 'heating', 2, ['the boiler\'s display or pressure gauge', 'any error code shown']) },
        { id: 'job_boiler_pressure', kind: 'job', title: 'A heating engineer will visit', job: job('Boiler losing pressure: no heating or hot water', 'heating', 2, ['the pressure gauge after topping up', 'the pipes under the boiler']) },
        { id: 'job_boiler_fault', kind: 'job', title: 'A heating engineer will visit', job: job('Boiler leaking or noisy', 'heating', 2, ['the boiler and the pipes under it']) },
        { id: 'job_heating', kind: 'job', title: 'A heating engineer will visit', job: job('No heating (hot water works)', 'heating', 3, ['the thermostat or programmer']) },
        { id: 'job_hot_water', kind: 'job', title: 'A heating engineer will visit', job: job('No hot water (heating works)', 'heating', 3, ['the boiler\'s display']) },
      ],
    },
  },
  {
    code: 'leaks',
    name: 'Leaks, floods and blockages',
    tree: {
      start: 'what',
      nodes: [
        {
          id: 'what', kind: 'question', text: 'What is happening?',
          options: [
            { id: 'burst', label: 'A burst pipe or water I cannot stop', next: 'emergency_flood' },
            { id: 'electrics', label: 'Water coming through a ceiling or near lights or sockets', next: 'emergency_electrics' },
            { id: 'drip', label: 'A drip or small leak (tap, under a sink, round a bath)', next: 'isolate' },
            { id: 'blocked', label: 'A blocked sink, bath, toilet or drain', next: 'blocked' },
          ],
        },
        {
          id: 'isolate', kind: 'question', help: 'Most taps, toilets and washing machines have a small isolation valve on the pipe: turn its slot a quarter turn across the pipe to stop the water. Put a bowl under the drip.',
          text: 'Have you been able to stop or contain the water?',
          options: [
            { id: 'yes', label: 'Yes, it is contained', next: 'job_drip' },
            { id: 'no', label: 'No, it keeps coming', next: 'job_leak_urgent' },
          ],
        },
        {
          id: 'blocked', kind: 'question', help: 'Try a plunger, or hot (not boiling) water with washing-up liquid. Do not use chemical drain cleaner in a toilet.',
          text: 'Is it clear now?',
          options: [
            { id: 'yes', label: 'Yes, it drains now', next: 'advice_blocked' },
            { id: 'no', label: 'No, still blocked', next: 'job_blocked' },
          ],
        },
        {
          id: 'emergency_flood', kind: 'emergency', title: 'Turn the water off at the stop tap',
          instruction: 'Turn the water off at the stop tap (often under the kitchen sink, or where the pipe enters the home). Switch off the water heater and move belongings away. If water is near electrics, switch off the electricity at the consumer unit if it is dry to reach. We have raised an emergency job and told our on-call contact.',
          job: job('Burst pipe or uncontrolled leak', 'plumbing', 1, ['where the water is coming from']),
        },
        {
          id: 'emergency_electrics', kind: 'emergency', title: 'Water near electrics: keep clear',
          instruction: 'Do not touch switches or fittings that are wet. If the consumer unit is dry and safe to reach, switch the electricity off there. Turn the water off at the stop tap. If you see sparks or smoke, leave and call 999. We have raised an emergency job and told our on-call contact.',
          job: job('Water leaking near electrics', 'plumbing', 1, ['the ceiling or fitting where the water comes through']),
        },
        { id: 'advice_blocked', kind: 'advice', title: 'Cleared', text: 'Good. Avoid putting fat, wipes or food waste down sinks and toilets; a sink strainer helps.' },
        { id: 'job_drip', kind: 'job', title: 'A plumber will visit', job: job('Dripping tap or small leak (contained)', 'plumbing', 4, ['the leak', 'the tap or pipe it comes from']) },
        { id: 'job_leak_urgent', kind: 'job', title: 'A plumber will visit soon', job: job('Leak that cannot be stopped', 'plumbing', 2, ['the leak']) },
        { id: 'job_blocked', kind: 'job', title: 'A drainage contractor will visit', job: job('Blocked sink, bath, toilet or drain', 'drainage', 3, ['the blocked fitting']) },
      ],
    },
  },
  {
    code: 'electrics',
    name: 'Electrics and power',
    tree: {
      start: 'what',
      nodes: [
        {
          id: 'what', kind: 'question', text: 'What is happening?',
          options: [
            { id: 'danger', label: 'Sparks, a burning smell or bare wires', next: 'emergency_electrics' },
            { id: 'part', label: 'No power in part of the home', next: 'trip' },
            { id: 'all', label: 'No power anywhere in the home', next: 'power_cut' },
            { id: 'one', label: 'One socket or light does not work', next: 'job_socket' },
          ],
        },
        {
          id: 'trip', kind: 'question',
          help: 'Open the consumer unit (fuse box). If a switch or RCD is down, unplug everything on that circuit and push the switch back up. Then plug things back in one at a time: the one that trips it again is faulty; keep it unplugged.',
          text: 'Has the power come back and stayed on?',
          options: [
            { id: 'yes', label: 'Yes, the power is back', next: 'advice_trip' },
            { id: 'no', label: 'No, it trips again or will not reset', next: 'job_trip' },
          ],
        },
        {
          id: 'power_cut', kind: 'question', help: 'Check whether the street lights or your neighbours have power.',
          text: 'Are your neighbours without power too?',
          options: [
            { id: 'yes', label: 'Yes, it looks like a power cut', next: 'advice_power_cut' },
            { id: 'no', label: 'No, only my home', next: 'job_no_power' },
          ],
        },
        {
          id: 'emergency_electrics', kind: 'emergency', title: 'Electrical danger: keep clear',
          instruction: 'Do not touch the fitting. If it is safe, switch the electricity off at the consumer unit. If there is smoke or fire, leave and call 999. We have raised an emergency job and told our on-call contact.',
          job: job('Sparking, burning smell or exposed wiring', 'electrical', 1, ['the fitting or wiring (from a safe distance)']),
        },
        { id: 'advice_trip', kind: 'advice', title: 'Power back on', text: 'Good. If one appliance kept tripping the switch, keep it unplugged; if it is one the landlord supplied, report it under Appliances.' },
        { id: 'advice_power_cut', kind: 'advice', title: 'A power cut', text: 'Call 105, the free national power cut number, for news from your network operator. There is nothing for us to repair.' },
        { id: 'job_trip', kind: 'job', title: 'An electrician will visit', job: job('Circuit keeps tripping or will not reset', 'electrical', 2, ['the consumer unit with its cover open']) },
        { id: 'job_no_power', kind: 'job', title: 'An electrician will visit today', job: job('No power in the whole home', 'electrical', 1, ['the consumer unit'], 'emergency') },
        { id: 'job_socket', kind: 'job', title: 'An electrician will visit', job: job('Socket or light not working', 'electrical', 4, ['the socket or light']) },
      ],
    },
  },
  {
    code: 'doors_locks',
    name: 'Doors, windows and locks',
    tree: {
      start: 'secure',
      nodes: [
        {
          id: 'secure', kind: 'question', text: 'Can you lock your home?',
          options: [
            { id: 'no', label: 'No: a door or window will not lock, or was broken in', next: 'job_insecure' },
            { id: 'locked_out', label: 'I am locked out', next: 'advice_locked_out' },
            { id: 'yes', label: 'Yes, but a lock, handle or hinge is faulty', next: 'job_faulty' },
          ],
        },
        { id: 'advice_locked_out', kind: 'advice', title: 'Locked out', text: 'Call the office in office hours to borrow the spare key. Out of hours a locksmith is at your own cost unless the lock itself failed; if it did, report a faulty lock once you are in.' },
        { id: 'job_insecure', kind: 'job', title: 'A locksmith will come today', job: job('Home cannot be secured', 'locksmith', 1, ['the door or window and its lock'], 'emergency') },
        { id: 'job_faulty', kind: 'job', title: 'A contractor will visit', job: job('Faulty lock, handle or hinge', 'locksmith', 4, ['the faulty lock or handle']) },
      ],
    },
  },
  {
    code: 'damp_mould',
    name: 'Damp and mould',
    tree: {
      start: 'leak',
      nodes: [
        {
          id: 'leak', kind: 'question', text: 'Is there a leak (dripping water, or a wet patch that grows)?',
          options: [
            { id: 'yes', label: 'Yes', next: 'job_leak' },
            { id: 'no', label: 'No, it is condensation or mould', next: 'size' },
          ],
        },
        {
          id: 'size', kind: 'question',
          help: 'Wipe condensation off windows each morning, open trickle vents, use the extractor fan when cooking or showering, dry clothes outside or with the window open, and keep the heating at a steady low temperature. Small patches of mould can be cleaned with a mould spray.',
          text: 'Is the mould larger than about a square metre, or back within weeks of cleaning?',
          options: [
            { id: 'yes', label: 'Yes', next: 'job_mould' },
            { id: 'no', label: 'No, it is small and cleans off', next: 'advice_mould' },
          ],
        },
        { id: 'advice_mould', kind: 'advice', title: 'Keep it at bay', text: 'Keep ventilating and heating as above. If it spreads or comes back, report it again: we will inspect.' },
        { id: 'job_leak', kind: 'job', title: 'A plumber will visit', job: job('Damp from a leak', 'plumbing', 3, ['the damp patch', 'the ceiling or wall around it']) },
        { id: 'job_mould', kind: 'job', title: 'We will inspect the damp and mould', job: job('Damp and mould', 'damp_and_mould', 2, ['the mould (whole wall)', 'a close-up of the worst patch', 'the window and its vents']) },
      ],
    },
  },
  {
    code: 'appliances',
    name: 'Appliances',
    tree: {
      start: 'ours',
      nodes: [
        {
          id: 'ours', kind: 'question', text: 'Was the appliance supplied with the home (listed in your inventory)?',
          options: [
            { id: 'yes', label: 'Yes', next: 'checks' },
            { id: 'no', label: 'No, it is mine', next: 'advice_own' },
          ],
        },
        {
          id: 'checks', kind: 'question', help: 'Check it is plugged in and switched on at the wall, that the socket works with something else, and that no switch has tripped at the consumer unit.',
          text: 'Is it still not working after these checks?',
          options: [
            { id: 'yes', label: 'Still not working', next: 'job_appliance' },
            { id: 'no', label: 'It works now', next: 'advice_fixed' },
          ],
        },
        { id: 'advice_own', kind: 'advice', title: 'Your own appliance', text: 'Appliances you brought are yours to repair. If it trips the electrics, keep it unplugged.' },
        { id: 'advice_fixed', kind: 'advice', title: 'Working again', text: 'Good. Report it again if it stops.' },
        { id: 'job_appliance', kind: 'job', title: 'An appliance engineer will visit', job: job('Appliance not working', 'appliance_repair', 3, ['the appliance', 'its model and serial number plate']) },
      ],
    },
  },
  {
    code: 'pests',
    name: 'Pests',
    tree: {
      start: 'what',
      nodes: [
        {
          id: 'what', kind: 'question', text: 'What have you seen?',
          options: [
            { id: 'rodents', label: 'Mice or rats', next: 'job_rodents' },
            { id: 'wasps', label: 'A wasps\' or hornets\' nest', next: 'job_wasps' },
            { id: 'bedbugs', label: 'Bed bugs', next: 'job_bedbugs' },
            { id: 'insects', label: 'Ants, flies or other insects', next: 'advice_insects' },
          ],
        },
        { id: 'advice_insects', kind: 'advice', title: 'Insects', text: 'Keep food sealed and surfaces clean; ant and fly treatments from a supermarket or DIY shop deal with most. Report it again if they keep coming.' },
        { id: 'job_rodents', kind: 'job', title: 'A pest controller will visit', job: job('Mice or rats', 'pest_control', 3, ['droppings or damage', 'where they get in']) },
        { id: 'job_wasps', kind: 'job', title: 'A pest controller will visit', job: job('Wasps\' nest', 'pest_control', 3, ['the nest (from a safe distance)']) },
        { id: 'job_bedbugs', kind: 'job', title: 'A pest controller will visit', job: job('Bed bugs', 'pest_control', 3, ['the bites or bugs seen']) },
      ],
    },
  },
];
