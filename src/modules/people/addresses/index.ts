/**
 * Property addresses of an agency (spec: addresses; docs/api.md).
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { addressesRoutes } from './addresses.routes.ts';
export { addressesByIds, addressesOfTenant, findAddressById } from './addresses.repository.ts';
export { Address } from './addresses.schemas.ts';
export { getAddressRow, toAddressDto } from './addresses.service.ts';
export { districtOf, normaliseDistrict, normalisePostcode, postcodePrefix } from './postcode.ts';
