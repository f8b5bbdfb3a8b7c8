/**
 * Property addresses of an agency (spec: addresses; docs/api.md).
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { addressesRoutes } from './addresses.routes.ts';
export { addressesByIds, addressesOfTenant, findAddressById } from './addresses.repository.ts';
export { Address } from './addresses.schemas.ts';
export { backfillAddressPartsBatch, countAddressesForBackfill, getAddressRow, partsOf, toAddressDto } from './addresses.service.ts';
export { addressKey, buildingKey, linesFromParts, namesBuilding, PART_NAMES, partsFromLines, type AddressParts } from './address-parts.ts';
export { compareDistricts } from './postcode.ts';
export { districtOf, normaliseDistrict, normalisePostcode, postcodePrefix, postcodeProblem } from './postcode.ts';
