"""PagerDuty's python `pagerduty` client, unchanged, against the emulator over HTTPS.

Run by tests/clients/official-clients.test.ts inside a virtualenv it creates. Every call is the
client's own (rpost, rget, rput, rdelete, iter_all, iter_cursor, list_all, find); a request the
emulator refuses raises, and the script exits non-zero naming the step. On success it prints one
JSON line with what the client saw, for the test to check.

Environment: PD_BASE_URL, PD_API_KEY, PD_ESCALATION_POLICY, PD_PREFIX; SSL_CERT_FILE names the
emulator's CA (the ready line's caFile), as a user trusts a private CA (the client is built on httpx).
"""

import json
import os
import sys

import pagerduty

base_url = os.environ["PD_BASE_URL"]
prefix = os.environ["PD_PREFIX"]
policy = {"id": os.environ["PD_ESCALATION_POLICY"], "type": "escalation_policy_reference"}
client = pagerduty.RestApiV2Client(os.environ["PD_API_KEY"], base_url=base_url)
seen = {}
step = "start"


def at(name):
    global step
    step = name


try:
    # Services: create without "type" (as users of the client write it), read, update, list with paging.
    at("services: rpost")
    ids = [client.rpost("/services", json={"name": f"{prefix} {i}", "escalation_policy": policy})["id"] for i in range(5)]
    at("services: rget")
    seen["service_name"] = client.rget(f"/services/{ids[0]}")["name"]
    at("services: rput")
    seen["service_description"] = client.rput(f"/services/{ids[0]}", json={"description": "edited by python"})["description"]
    at("services: iter_all with a page of 2")
    listed = [s["id"] for s in client.iter_all("/services", params={"query": prefix}, page_size=2)]
    seen["listed"] = sorted(listed) == sorted(ids)
    at("services: find")
    seen["found"] = client.find("services", f"{prefix} 3")["id"] == ids[3]

    sid = ids[0]
    # Integrations: Events API v2, and email with filters.
    at("integrations: rpost events")
    events = client.rpost(f"/services/{sid}/integrations", json={"type": "events_api_v2_inbound_integration", "name": "events"})
    seen["integration_key_length"] = len(events.get("integration_key") or "")
    at("integrations: rpost email with filters")
    email = client.rpost(
        f"/services/{sid}/integrations",
        json={
            "type": "generic_email_inbound_integration",
            "name": "mail",
            "email_filter_mode": "and-rules-email",
            "email_filters": [{"subject_mode": "match", "subject_regex": "^ALERT", "body_mode": "always", "from_email_mode": "always"}],
        },
    )
    at("integrations: rget")
    seen["email_filters"] = client.rget(f"/services/{sid}/integrations/{email['id']}")["email_filters"]
    at("integrations: rput")
    seen["integration_renamed"] = client.rput(f"/services/{sid}/integrations/{events['id']}", json={"name": "events renamed"})["name"]

    # Event rules: create, list, get, update (rput sends {"rule": {...}} only), delete.
    rule = {
        "conditions": {"operator": "and", "subconditions": [{"operator": "contains", "parameters": {"path": "payload.summary", "value": "db"}}]},
        "actions": {"annotate": {"value": "from python"}},
    }
    at("rules: rpost")
    rules = [client.rpost(f"/services/{sid}/rules", json=rule)["id"] for _ in range(3)]
    at("rules: iter_all")
    seen["rules_listed"] = sorted(r["id"] for r in client.iter_all(f"/services/{sid}/rules", page_size=2)) == sorted(rules)
    at("rules: rget")
    seen["rule_annotate"] = client.rget(f"/services/{sid}/rules/{rules[0]}")["actions"]["annotate"]["value"]
    at("rules: rput")
    seen["rule_disabled"] = client.rput(f"/services/{sid}/rules/{rules[0]}", json={"disabled": True})["disabled"]
    at("rules: rdelete")
    client.rdelete(f"/services/{sid}/rules/{rules[2]}")
    seen["rules_left"] = len(client.list_all(f"/services/{sid}/rules"))

    # Custom field values: get, put.
    at("custom fields: rget values")
    seen["field_names"] = sorted(f["name"] for f in client.rget(f"/services/{sid}/custom_fields/values"))
    at("custom fields: rput values")
    values = client.rput(f"/services/{sid}/custom_fields/values", json=[{"name": "tier", "value": "gold"}])
    seen["tier"] = next(f["value"] for f in values if f["name"] == "tier")

    # Enablements: get, put.
    at("enablements: rget")
    seen["enablements"] = [e["feature"] for e in client.rget(f"/services/{sid}/enablements")]
    at("enablements: rput")
    seen["aiops_enabled"] = client.rput(f"/services/{sid}/enablements/aiops", json={"enabled": False})["enabled"]

    # Audit records, by cursor.
    at("audit records: iter_cursor")
    records = list(client.iter_cursor(f"/services/{sid}/audit/records", params={"limit": 2}))
    seen["audit_records"] = len(records)
    seen["audit_ids_unique"] = len({r["id"] for r in records}) == len(records)

    at("services: rdelete")
    for i in ids:
        client.rdelete(f"/services/{i}")
except Exception as e:  # noqa: BLE001 - the step and the client's own error are the report
    response = getattr(e, "response", None)
    detail = f" -> {response.status_code} {response.text[:400]}" if response is not None else ""
    print(f"python pagerduty client failed at {step}: {type(e).__name__}: {e}{detail}", file=sys.stderr)
    sys.exit(1)

print(json.dumps(seen))
