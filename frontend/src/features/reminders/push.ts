/** Web Push on this device: available only where a service worker is registered (the PWA's). */
import type { PushSubscriptionRequest } from '../../api/gen/model';

/** The VAPID key (base64url) as the bytes pushManager.subscribe wants. */
export function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = (base64url + '='.repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/** A short name of this browser and system, for the device list ("Chrome on Android"). */
export function deviceName(ua: string = navigator.userAgent): string {
  const browserName = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : 'Browser';
  const system = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Mac OS X/.test(ua)
        ? 'macOS'
        : /Windows/.test(ua)
          ? 'Windows'
          : /Linux/.test(ua)
            ? 'Linux'
            : '';
  return system ? `${browserName} on ${system}` : browserName;
}

/** The service worker's registration, or null where push cannot work in this browser. */
async function pushRegistration(): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator) || typeof window === 'undefined' || !('PushManager' in window)) return null;
  if (!('Notification' in window)) return null;
  // navigator.serviceWorker.ready never settles without a registration, so ask first.
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration) return null;
  return navigator.serviceWorker.ready;
}

export type PushOutcome = { kind: 'subscribed'; request: PushSubscriptionRequest } | { kind: 'unavailable' } | { kind: 'denied' };

/** Asks for permission and subscribes this device to push with the server's VAPID key. */
export async function subscribeThisDevice(vapidPublicKey: string): Promise<PushOutcome> {
  const registration = await pushRegistration();
  if (!registration) return { kind: 'unavailable' };
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return { kind: 'denied' };
  const sub = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: applicationServerKey(vapidPublicKey),
  });
  const json = sub.toJSON();
  return {
    kind: 'subscribed',
    request: {
      endpoint: sub.endpoint,
      keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
      device: deviceName(),
    },
  };
}
