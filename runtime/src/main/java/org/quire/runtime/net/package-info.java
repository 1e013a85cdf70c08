/**
 * Network plumbing shared by the runtime's and the launcher's listeners: {@link
 * org.quire.runtime.net.GuardedServer}, a listener that serves strangers' connections without
 * letting them delay or crash the job.
 */
package org.quire.runtime.net;
