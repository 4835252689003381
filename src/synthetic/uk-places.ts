/**
 * UK post towns for synthetic registered offices: the town as Royal Mail spells it, its county as
 * people still write it, its nation, how much of the register sits there (roughly), and the
 * postcode districts that serve it. Districts are written compactly: "LS1-29" is LS1 to LS29.
 */

export type Nation = 'england' | 'wales' | 'scotland' | 'northern-ireland';

export interface PostTown {
  town: string;
  county: string;
  nation: Nation;
  weight: number;
  /** Outward codes ("LS1", "EC1V"). */
  districts: readonly string[];
}

type Row = readonly [town: string, county: string, nation: Nation, weight: number, districts: string];

const ROWS: readonly Row[] = [
  ['LONDON', 'GREATER LONDON', 'england', 160, 'E1-18 N1-22 NW1-11 SE1-28 SW1-20 W1-14'],
  [
    'LONDON',
    'GREATER LONDON',
    'england',
    60,
    'EC1A EC1M EC1N EC1R EC1V EC1Y EC2A EC2M EC2N EC2R EC2V EC2Y EC3A EC3M EC3N EC3R EC3V EC4A EC4M EC4N EC4R EC4V EC4Y WC1A WC1B WC1E WC1H WC1N WC1R WC1V WC1X WC2A WC2B WC2E WC2H WC2N WC2R W1B W1D W1F W1G W1H W1J W1K W1S W1T W1U W1W',
  ],
  ['BIRMINGHAM', 'WEST MIDLANDS', 'england', 28, 'B1-48'],
  ['MANCHESTER', 'GREATER MANCHESTER', 'england', 26, 'M1-46'],
  ['LEEDS', 'WEST YORKSHIRE', 'england', 18, 'LS1-29'],
  ['SHEFFIELD', 'SOUTH YORKSHIRE', 'england', 11, 'S1-36'],
  ['LIVERPOOL', 'MERSEYSIDE', 'england', 12, 'L1-38'],
  ['BRISTOL', 'AVON', 'england', 14, 'BS1-16 BS20-41'],
  ['LEICESTER', 'LEICESTERSHIRE', 'england', 10, 'LE1-19'],
  ['NOTTINGHAM', 'NOTTINGHAMSHIRE', 'england', 10, 'NG1-17'],
  ['COVENTRY', 'WEST MIDLANDS', 'england', 7, 'CV1-8'],
  ['BRADFORD', 'WEST YORKSHIRE', 'england', 7, 'BD1-15'],
  ['NEWCASTLE UPON TYNE', 'TYNE AND WEAR', 'england', 8, 'NE1-20'],
  ['SUNDERLAND', 'TYNE AND WEAR', 'england', 3, 'SR1-7'],
  ['SOUTHAMPTON', 'HAMPSHIRE', 'england', 6, 'SO14-19 SO30-32'],
  ['PORTSMOUTH', 'HAMPSHIRE', 'england', 4, 'PO1-6'],
  ['BRIGHTON', 'EAST SUSSEX', 'england', 6, 'BN1-2'],
  ['READING', 'BERKSHIRE', 'england', 7, 'RG1-10 RG30-31'],
  ['OXFORD', 'OXFORDSHIRE', 'england', 5, 'OX1-4'],
  ['CAMBRIDGE', 'CAMBRIDGESHIRE', 'england', 5, 'CB1-5'],
  ['MILTON KEYNES', 'BUCKINGHAMSHIRE', 'england', 6, 'MK1-19'],
  ['NORTHAMPTON', 'NORTHAMPTONSHIRE', 'england', 5, 'NN1-7'],
  ['NORWICH', 'NORFOLK', 'england', 5, 'NR1-14'],
  ['IPSWICH', 'SUFFOLK', 'england', 3, 'IP1-10'],
  ['COLCHESTER', 'ESSEX', 'england', 3, 'CO1-7'],
  ['CHELMSFORD', 'ESSEX', 'england', 4, 'CM1-3'],
  ['SOUTHEND-ON-SEA', 'ESSEX', 'england', 3, 'SS0-3'],
  ['LUTON', 'BEDFORDSHIRE', 'england', 4, 'LU1-4'],
  ['WATFORD', 'HERTFORDSHIRE', 'england', 4, 'WD17-19 WD24-25'],
  ['ST. ALBANS', 'HERTFORDSHIRE', 'england', 3, 'AL1-4'],
  ['GUILDFORD', 'SURREY', 'england', 3, 'GU1-5'],
  ['WOKING', 'SURREY', 'england', 2, 'GU21-24'],
  ['CROYDON', 'SURREY', 'england', 5, 'CR0 CR2 CR7 CR9'],
  ['BROMLEY', 'KENT', 'england', 3, 'BR1-2'],
  ['HARROW', 'MIDDLESEX', 'england', 5, 'HA1-3'],
  ['ILFORD', 'ESSEX', 'england', 5, 'IG1-6'],
  ['ROMFORD', 'ESSEX', 'england', 3, 'RM1-7'],
  ['KINGSTON UPON THAMES', 'SURREY', 'england', 2, 'KT1-2'],
  ['TWICKENHAM', 'MIDDLESEX', 'england', 2, 'TW1-2'],
  ['ENFIELD', 'MIDDLESEX', 'england', 3, 'EN1-3'],
  ['WEMBLEY', 'MIDDLESEX', 'england', 3, 'HA0 HA9'],
  ['HAYES', 'MIDDLESEX', 'england', 2, 'UB3-4'],
  ['SLOUGH', 'BERKSHIRE', 'england', 3, 'SL1-3'],
  ['MAIDSTONE', 'KENT', 'england', 3, 'ME14-17'],
  ['CANTERBURY', 'KENT', 'england', 2, 'CT1-4'],
  ['TUNBRIDGE WELLS', 'KENT', 'england', 2, 'TN1-4'],
  ['TONBRIDGE', 'KENT', 'england', 1, 'TN9-12'],
  ['CRAWLEY', 'WEST SUSSEX', 'england', 2, 'RH10-11'],
  ['EXETER', 'DEVON', 'england', 3, 'EX1-6'],
  ['PLYMOUTH', 'DEVON', 'england', 3, 'PL1-9'],
  ['TRURO', 'CORNWALL', 'england', 2, 'TR1-4'],
  ['BATH', 'AVON', 'england', 2, 'BA1-2'],
  ['GLOUCESTER', 'GLOUCESTERSHIRE', 'england', 2, 'GL1-4'],
  ['CHELTENHAM', 'GLOUCESTERSHIRE', 'england', 2, 'GL50-54'],
  ['SWINDON', 'WILTSHIRE', 'england', 3, 'SN1-6 SN25'],
  ['BOURNEMOUTH', 'DORSET', 'england', 3, 'BH1-11'],
  ['POOLE', 'DORSET', 'england', 2, 'BH12-17'],
  ['SALISBURY', 'WILTSHIRE', 'england', 1, 'SP1-5'],
  ['WORCESTER', 'WORCESTERSHIRE', 'england', 2, 'WR1-5'],
  ['HEREFORD', 'HEREFORDSHIRE', 'england', 1, 'HR1-4'],
  ['SHREWSBURY', 'SHROPSHIRE', 'england', 1, 'SY1-5'],
  ['STOKE-ON-TRENT', 'STAFFORDSHIRE', 'england', 3, 'ST1-12'],
  ['DERBY', 'DERBYSHIRE', 'england', 3, 'DE1-24'],
  ['LINCOLN', 'LINCOLNSHIRE', 'england', 2, 'LN1-6'],
  ['PETERBOROUGH', 'CAMBRIDGESHIRE', 'england', 3, 'PE1-7'],
  ['HULL', 'EAST YORKSHIRE', 'england', 3, 'HU1-10'],
  ['YORK', 'NORTH YORKSHIRE', 'england', 3, 'YO1 YO10 YO19 YO23-32'],
  ['HARROGATE', 'NORTH YORKSHIRE', 'england', 2, 'HG1-3'],
  ['DONCASTER', 'SOUTH YORKSHIRE', 'england', 2, 'DN1-12'],
  ['WAKEFIELD', 'WEST YORKSHIRE', 'england', 2, 'WF1-4'],
  ['HUDDERSFIELD', 'WEST YORKSHIRE', 'england', 2, 'HD1-9'],
  ['HALIFAX', 'WEST YORKSHIRE', 'england', 1, 'HX1-7'],
  ['BOLTON', 'GREATER MANCHESTER', 'england', 2, 'BL1-7'],
  ['STOCKPORT', 'CHESHIRE', 'england', 3, 'SK1-8'],
  ['WARRINGTON', 'CHESHIRE', 'england', 2, 'WA1-5'],
  ['WIGAN', 'LANCASHIRE', 'england', 1, 'WN1-6'],
  ['PRESTON', 'LANCASHIRE', 'england', 2, 'PR1-5'],
  ['BLACKBURN', 'LANCASHIRE', 'england', 2, 'BB1-2'],
  ['LANCASTER', 'LANCASHIRE', 'england', 1, 'LA1-2'],
  ['CARLISLE', 'CUMBRIA', 'england', 1, 'CA1-6'],
  ['DURHAM', 'COUNTY DURHAM', 'england', 1, 'DH1'],
  ['MIDDLESBROUGH', 'CLEVELAND', 'england', 2, 'TS1-8'],
  ['CHESTER', 'CHESHIRE', 'england', 2, 'CH1-4'],
  ['WOLVERHAMPTON', 'WEST MIDLANDS', 'england', 3, 'WV1-14'],
  ['WALSALL', 'WEST MIDLANDS', 'england', 2, 'WS1-9'],
  ['SOLIHULL', 'WEST MIDLANDS', 'england', 2, 'B90-94'],
  ['TELFORD', 'SHROPSHIRE', 'england', 1, 'TF1-7'],
  ['BEDFORD', 'BEDFORDSHIRE', 'england', 2, 'MK40-45'],
  ['HIGH WYCOMBE', 'BUCKINGHAMSHIRE', 'england', 2, 'HP10-15'],
  ['CARDIFF', 'SOUTH GLAMORGAN', 'wales', 8, 'CF3 CF5 CF10-24'],
  ['SWANSEA', 'WEST GLAMORGAN', 'wales', 3, 'SA1-7'],
  ['NEWPORT', 'GWENT', 'wales', 2, 'NP10 NP18-20'],
  ['WREXHAM', 'CLWYD', 'wales', 1, 'LL11-14'],
  ['BANGOR', 'GWYNEDD', 'wales', 1, 'LL57'],
  ['CARMARTHEN', 'DYFED', 'wales', 1, 'SA31-33'],
  ['EDINBURGH', 'MIDLOTHIAN', 'scotland', 12, 'EH1-17'],
  ['GLASGOW', 'LANARKSHIRE', 'scotland', 14, 'G1-5 G11-53'],
  ['ABERDEEN', 'ABERDEENSHIRE', 'scotland', 6, 'AB10-25'],
  ['DUNDEE', 'ANGUS', 'scotland', 3, 'DD1-5'],
  ['INVERNESS', 'INVERNESS-SHIRE', 'scotland', 2, 'IV1-3'],
  ['PERTH', 'PERTHSHIRE', 'scotland', 2, 'PH1-2'],
  ['STIRLING', 'STIRLINGSHIRE', 'scotland', 1, 'FK7-9'],
  ['PAISLEY', 'RENFREWSHIRE', 'scotland', 1, 'PA1-3'],
  ['KIRKCALDY', 'FIFE', 'scotland', 1, 'KY1-2'],
  ['AYR', 'AYRSHIRE', 'scotland', 1, 'KA6-8'],
  ['BELFAST', 'COUNTY ANTRIM', 'northern-ireland', 10, 'BT1-17'],
  ['LONDONDERRY', 'COUNTY LONDONDERRY', 'northern-ireland', 2, 'BT47-48'],
  ['NEWRY', 'COUNTY DOWN', 'northern-ireland', 2, 'BT34-35'],
  ['LISBURN', 'COUNTY ANTRIM', 'northern-ireland', 2, 'BT27-28'],
  ['BANGOR', 'COUNTY DOWN', 'northern-ireland', 1, 'BT19-20'],
  ['ENNISKILLEN', 'COUNTY FERMANAGH', 'northern-ireland', 1, 'BT74'],
  ['DUNGANNON', 'COUNTY TYRONE', 'northern-ireland', 1, 'BT70-71'],
];

function districts(spec: string): string[] {
  return spec.split(' ').flatMap((token) => {
    const range = /^([A-Z]+)(\d+)-(\d+)$/.exec(token);
    if (!range) return [token];
    const out: string[] = [];
    for (let n = Number(range[2]); n <= Number(range[3]); n++) out.push(`${range[1]}${n}`);
    return out;
  });
}

/** Every post town of a nation, with its weight, ready for `Random.weighted`. */
export const POST_TOWNS: Record<Nation, readonly (readonly [PostTown, number])[]> = (() => {
  const byNation: Record<Nation, [PostTown, number][]> = {
    england: [],
    wales: [],
    scotland: [],
    'northern-ireland': [],
  };
  for (const [town, county, nation, weight, spec] of ROWS) {
    byNation[nation].push([{ town, county, nation, weight, districts: districts(spec) }, weight]);
  }
  return byNation;
})();

/** The nation as the register's country field spells it. */
export const NATION_NAMES: Record<Nation, string> = {
  england: 'ENGLAND',
  wales: 'WALES',
  scotland: 'SCOTLAND',
  'northern-ireland': 'NORTHERN IRELAND',
};
