/**
 * The plugin API version this package implements. A plugin's `manifest.apiVersion` is a semver range
 * that must be satisfied by it; the host refuses the plugin otherwise.
 */
export const API_VERSION = '0.1.0';
