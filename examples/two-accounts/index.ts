// One program, two PagerDuty accounts: the default account (the top-level pagerduty:* settings, here
// a US account) and the account named "eu" (pagerduty:accounts.eu, an EU account whose data stays in
// the EU service region). Each gets a service with an Events API v2 integration; the names repeat,
// as each account holds its own. See README.md beside this file for the stack config.
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";

const config = new pulumi.Config();
const eu = new pagerduty.Account("eu");

const usCheckout = new pagerduty.Service("checkout-us", {
  name: "Checkout API",
  description: "Checkout for US customers",
  escalationPolicy: config.require("escalationPolicyId"),
});
const usEvents = new pagerduty.ServiceIntegration("checkout-us-events", {
  service: usCheckout.id,
  type: "events_api_v2_inbound_integration",
  name: "Monitoring",
});

const euCheckout = new pagerduty.Service("checkout-eu", {
  name: "Checkout API",
  description: "Checkout for EU customers",
  escalationPolicy: config.require("euEscalationPolicyId"),
  account: eu,
});
const euEvents = new pagerduty.ServiceIntegration("checkout-eu-events", {
  service: euCheckout.id,
  type: "events_api_v2_inbound_integration",
  name: "Monitoring",
  account: eu,
});

export const usServiceUrl = usCheckout.htmlUrl;
export const euServiceUrl = euCheckout.htmlUrl;
// Routing keys are secrets: encrypted in state, masked in output.
export const usRoutingKey = usEvents.integrationKey;
export const euRoutingKey = euEvents.integrationKey;
