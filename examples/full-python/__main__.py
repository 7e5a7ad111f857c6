"""A platform team's whole PagerDuty setup for an online shop, as a Python program.

The same setup as examples/full (TypeScript), through the Pulumi package `pagerduty-dynamic`:
the services on the checkout path and what they depend on, how their alerts reach PagerDuty and
are grouped, routed and enriched, the service catalogue's fields, and the move of the last legacy
services off event rules, and the database's planned maintenance. Every resource of the package
is here; lookups are functions.

Generate the SDK and install it (docs/package-python.md), set the credentials
(`pagerduty-dynamic:*`, docs/package.md) and `pulumi config set escalationPolicyId <id>`, then
`pulumi up`. `pulumi config set release 2` and another `pulumi up` roll out the setup's second
release, which changes something on every resource kind (each change is marked "Release 2").
"""

import pulumi
import pulumi_pagerduty_dynamic as pd

config = pulumi.Config()
escalation_policy = config.require("escalationPolicyId")
release = config.get_int("release") or 1
if release not in (1, 2):
    raise ValueError(f"release: must be 1 or 2 (the setup's releases), not {release}")
r2 = release == 2

# Release 2: the runbooks moved to the wiki. Services' fields, event rules and orchestration notes link them.
runbooks = "https://wiki.acme.example/sre/runbooks" if r2 else "https://runbooks.acme.example"
# Release 2: a second production cluster (prod-eu) sends alerts through the same integrations.
alertmanager = f"Alertmanager ({'prod-us, prod-eu' if r2 else 'prod-us'})"

# --- The checkout path: customers order through Checkout, which charges through Payments, which
# records orders in the orders database. One escalation policy pages the platform team for all.

checkout = pd.Service(
    "checkout",
    name="Checkout API",
    # Release 2: checkout reserves stock through Shipping's warehouse API (see the dependencies).
    description="Takes orders; reserves stock through " + ("Shipping" if r2 else "Inventory"),
    escalation_policy=escalation_policy,
    acknowledgement_timeout=600,
    incident_urgency_rule={"type": "constant", "urgency": "high"},
)

payments = pd.Service(
    "payments",
    name="Payments API",
    description="Charges cards for Checkout",
    escalation_policy=escalation_policy,
    incident_urgency_rule={"type": "constant", "urgency": "high"},
)

orders_db = pd.Service(
    "orders-db",
    name="Orders database",
    description="The Postgres cluster behind Checkout and Payments",
    escalation_policy=escalation_policy,
)

# --- How alerts arrive. Alertmanager sends the checkout path's alerts with these integrations'
# routing keys: Pulumi secrets, exported below for Alertmanager's configuration, encrypted in state.

checkout_alerts = pd.ServiceIntegration(
    "checkout-alertmanager", service=checkout.id, type="events_api_v2_inbound_integration", name=alertmanager
)
payments_alerts = pd.ServiceIntegration(
    "payments-alertmanager", service=payments.id, type="events_api_v2_inbound_integration", name=alertmanager
)

# Customers' complaints to the support mailbox open incidents too, one per new subject.
support_mailbox = pd.ServiceIntegration(
    "checkout-support-mailbox",
    service=checkout.id,
    type="generic_email_inbound_integration",
    name="Support mailbox",
    email_incident_creation="on_new_email_subject",
)

# One outage of the checkout path fires alerts on all three services: grouping them by summary
# across the services opens one incident instead of three. (Services belong to one setting each.)
checkout_path_grouping = pd.AlertGroupingSetting(
    "checkout-path",
    name="Checkout path",  # get_alert_grouping_setting below finds it by this name
    description="One incident per outage of the checkout path",
    type="content_based",
    # Release 2: an outage that drags on stays one incident: alerts group within 15 minutes, not 5.
    config={"aggregate": "all", "fields": ["summary"], "time_window": 900 if r2 else 300},
    services=[checkout.id, payments.id, orders_db.id],
)

# --- The orders database routes its events through an orchestration. A cache variable counts
# connection errors; a burst of them is one storm that pages at once, the rest is triaged by rules.

connection_errors = pd.ServiceOrchestrationCacheVariable(
    "orders-db-connection-errors",
    service=orders_db.id,
    name="connection_errors",
    conditions=[{"expression": "event.summary matches part 'connection refused'"}],
    # Release 2: counted over 2 minutes instead of 1 (storms built up slower than the window).
    configuration={"type": "trigger_event_count", "ttl_seconds": 120 if r2 else 60},
)

orders_db_routing = pd.ServiceOrchestration(
    "orders-db-routing",
    service=orders_db.id,
    active=True,  # events go through these rules from now on
    sets=[
        {
            "id": "start",
            "rules": [
                {
                    "label": "Connection storm",
                    # The variable's `name` output, not the literal: a rename of the variable follows here.
                    "conditions": [{"expression": connection_errors.name.apply(lambda n: f"cache_var.{n} >= 5")}],
                    "actions": {"severity": "critical", "annotate": f"Connection storm: {runbooks}/orders-db#connection-storm"},
                },
                {
                    "label": "Replicas",
                    "conditions": [{"expression": "event.source matches part 'replica'"}],
                    "actions": {"route_to": "replicas"},
                },
            ],
        },
        {
            "id": "replicas",
            "rules": [
                {
                    "label": "Replication lag",
                    "conditions": [{"expression": "event.summary matches part 'replication lag'"}],
                    "actions": {"severity": "warning", "annotate": f"{runbooks}/orders-db#replication-lag"},
                }
            ],
        },
    ],
    catch_all={"actions": {"severity": "error"}},
    # The variable exists before a rule reads it and is deleted after.
    opts=pulumi.ResourceOptions(depends_on=[connection_errors]),
)

# --- The service catalogue: which team owns each service. The field is this program's; tier,
# runbook and pci are fields the account had already.

owning_team = pd.ServiceCustomField(
    "owning-team",
    name="owning_team",
    display_name="Owning team",
    description="The team that owns the service and staffs its on-call",
    data_type="string",
    field_type="single_value_fixed",
    # Release 2: the logistics team joins the catalogue.
    field_options=["storefront", "payments", "data"] + (["logistics"] if r2 else []),
)

# Only the fields named here are managed; destroying the stack puts back what they held before.
# The field is named literally, so the values depend on its resource.
checkout_fields = pd.ServiceCustomFieldValues(
    "checkout-fields",
    service=checkout.id,
    values={"owning_team": "storefront", "tier": "gold", "runbook": f"{runbooks}/checkout", "pci": True},
    opts=pulumi.ResourceOptions(depends_on=[owning_team]),
)
pd.ServiceCustomFieldValues(
    "payments-fields",
    service=payments.id,
    values={"owning_team": "payments", "tier": "gold", "runbook": f"{runbooks}/payments", "pci": True},
    opts=pulumi.ResourceOptions(depends_on=[owning_team]),
)

# Release 2: AIOps noise reduction on for Checkout, after a month of reviewing its grouped alerts.
# (An account without the AIOps entitlement gets a warning here, not a failure.)
checkout_aiops = pd.ServiceEnablement("checkout-aiops", service=checkout.id, feature="aiops", enabled=r2)

# --- Older services, still on event rules (PagerDuty ended them on 2025-01-31: rules keep working
# but cannot be created on converted services). Search keeps its rules this quarter; Inventory and
# Shipping move to orchestrations, one a release.

search = pd.Service("search", name="Search", description="Product search and its indexers", escalation_policy=escalation_policy)
inventory = pd.Service("inventory", name="Inventory", description="Stock levels (legacy)", escalation_policy=escalation_policy)
shipping = pd.Service(
    "shipping", name="Shipping", description="Labels, carriers and the warehouse API", escalation_policy=escalation_policy
)


def contains(path: str, value: str) -> dict:
    return {"operator": "and", "subconditions": [{"operator": "contains", "parameters": {"path": path, "value": value}}]}


# First match wins: the rules end at the positions asked for, although they are created in parallel.
search_rules = [
    pd.ServiceEventRule(
        "search-disk",
        service=search.id,
        position=0,
        conditions=contains("summary", "disk"),
        actions={"severity": {"value": "critical"}, "annotate": {"value": f"Disk full: {runbooks}/search#disk"}},
    ),
    pd.ServiceEventRule(
        "search-heartbeat",
        service=search.id,
        position=1,
        conditions=contains("summary", "heartbeat"),
        actions={"suppress": {"value": True}},
    ),
]

legacy_rules = [
    pd.ServiceEventRule(
        "inventory-sync",
        service=inventory.id,
        conditions=contains("summary", "stock sync failed"),
        actions={"severity": {"value": "error"}},
    ),
    pd.ServiceEventRule(
        "shipping-labels",
        service=shipping.id,
        conditions=contains("summary", "label printer"),
        actions={"severity": {"value": "warning"}},
    ),
]

# The conversion moves a service's event rules, in order, into its orchestration and makes that
# active; its rules are read-only from then on. Release 1 converts Inventory. Release 2 converts
# Shipping: a conversion's only input is its service, so this replaces it, and Inventory stays
# converted (a conversion cannot be undone; the old resource is only dropped from the state, with
# a warning). docs/orchestrations.md shows how a ServiceOrchestration then takes the rules over.
conversion = pd.ServiceEventRulesConversion(
    "legacy-conversion",
    service=shipping.id if r2 else inventory.id,
    opts=pulumi.ResourceOptions(depends_on=legacy_rules),
)

# --- What depends on what, for impact views: Checkout on Payments, Payments on the database.
pd.ServiceDependency("checkout-on-payments", supporting_service={"id": payments.id}, dependent_service={"id": checkout.id})
pd.ServiceDependency("payments-on-orders-db", supporting_service={"id": orders_db.id}, dependent_service={"id": payments.id})
# Release 2: Checkout reserves stock through Shipping instead of Inventory. A dependency is its pair
# of services, so changing a side replaces it.
stock = pd.ServiceDependency(
    "checkout-stock",
    supporting_service={"id": shipping.id if r2 else inventory.id},
    dependent_service={"id": checkout.id},
)

# --- Planned maintenance: the orders database moves to Postgres 17 on a Saturday night, written in
# the team's own time zone (PagerDuty answers in the account's: the times compare as instants). While
# the window lasts its services open no incidents from events. The times are fixed: a window computed
# from the clock would change on every run.
# Release 2: the upgrade is planned an hour longer, and Payments, which writes to the database, joins it.
upgrade = pd.MaintenanceWindow(
    "orders-db-upgrade",
    services=[orders_db.id, payments.id] if r2 else [orders_db.id],
    start_time="2030-03-16T02:00:00+01:00",
    end_time="2030-03-16T05:00:00+01:00" if r2 else "2030-03-16T04:00:00+01:00",
    description="Orders database: upgrade to Postgres 17",
)

# --- Lookups are functions here: they read the live objects on every preview and up. `depends_on`
# makes them read after the writes above, and while those objects do not exist yet (the first
# preview) their results are unknown instead of "not found".
checkout_writes = [checkout, checkout_alerts, support_mailbox, checkout_path_grouping, checkout_fields, checkout_aiops, stock]


def after(*resources: pulumi.Resource) -> pulumi.InvokeOutputOptions:
    return pulumi.InvokeOutputOptions(depends_on=list(resources))


found = pd.get_service_output(name="Checkout API", opts=after(*checkout_writes))
# A lookup reads the live object in a preview too: look up by a name this program does not change.
mailbox = pd.get_service_integration_output(service=checkout.id, name="Support mailbox", opts=after(support_mailbox))
grouping = pd.get_alert_grouping_setting_output(name="Checkout path", opts=after(checkout_path_grouping))
rules = pd.get_service_event_rules_output(service=search.id, opts=after(*search_rules))
enablements = pd.get_service_enablements_output(service=checkout.id, opts=after(checkout_aiops))
values = pd.get_service_custom_field_values_output(service=checkout.id, opts=after(checkout_fields))
audit = pd.get_service_audit_records_output(service=checkout.id, limit=50, opts=after(*checkout_writes))

# For Alertmanager's configuration: `pulumi stack output --show-secrets checkoutRoutingKey`.
pulumi.export("checkoutRoutingKey", checkout_alerts.integration_key)
pulumi.export("paymentsRoutingKey", payments_alerts.integration_key)
pulumi.export("supportAddress", support_mailbox.integration_email)
pulumi.export("checkoutUrl", checkout.html_url)
pulumi.export(
    "ids",
    {
        "checkout": checkout.id,
        "payments": payments.id,
        "ordersDb": orders_db.id,
        "search": search.id,
        "inventory": inventory.id,
        "shipping": shipping.id,
        "checkoutAlerts": checkout_alerts.id,
        "grouping": checkout_path_grouping.id,
        "connectionErrors": connection_errors.id,
        "owningTeam": owning_team.id,
        "searchDisk": search_rules[0].id,
        "searchHeartbeat": search_rules[1].id,
        "upgrade": upgrade.id,
    },
)
pulumi.export("convertedService", conversion.service)
pulumi.export("stormRule", orders_db_routing.sets.apply(lambda sets: sets[0].rules[0].conditions[0].expression))
pulumi.export("foundId", found.id)
pulumi.export("mailboxAddress", mailbox.integration_email)
pulumi.export("groupedServices", grouping.services)
# A rule's `position` is a number in the schema (a float here): shown as the integer it is.
pulumi.export("searchRuleOrder", rules.rules.apply(lambda rs: [f"{r.position}: {r.id}" for r in rs]))
pulumi.export("aiopsEnabled", enablements.enablements.apply(lambda es: next((e.enabled for e in es if e.feature == "aiops"), None)))
pulumi.export("checkoutTeam", values.values.apply(lambda v: v.get("owning_team")))
pulumi.export("previousFieldValues", checkout_fields.previous_values)
pulumi.export("auditActions", audit.records.apply(lambda rs: [r.action for r in rs]))
