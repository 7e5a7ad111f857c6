import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";

const config = new pulumi.Config();
const escalationPolicy = config.require("escalationPolicyId");

const checkout = new pagerduty.Service("checkout", {
  name: "Checkout API",
  description: "Takes orders and payments",
  escalationPolicy,
  acknowledgementTimeout: 600,
});

const search = new pagerduty.Service("search", {
  name: "Search",
  description: "Product search",
  escalationPolicy,
  autoResolveTimeout: null, // never auto-resolve
});

export const checkoutUrl = checkout.htmlUrl;
export const searchId = search.id;
