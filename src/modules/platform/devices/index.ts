/**
 * Device tokens for push notifications (spec: devices).
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { devicesRoutes } from './devices.routes.ts';
