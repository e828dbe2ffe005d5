# The MSAL Python snippet of docs/client-developers.md, run as a daemon would run it: Gatehouse needs only the
# authority and validate_authority=False, instance_discovery=False; a development certificate is
# trusted with REQUESTS_CA_BUNDLE. Inputs come from the environment; prints the token's claims.
import base64
import json
import os

import msal

credential = os.environ["CLIENT_SECRET"] if "CLIENT_SECRET" in os.environ else {
    "private_key": os.environ["PRIVATE_KEY_PEM"],
    "thumbprint": os.environ["THUMBPRINT"],  # SHA-1, hex (as Entra shows it): RS256 + x5t
}
app = msal.ConfidentialClientApplication(
    os.environ["CLIENT_ID"],
    authority=os.environ["AUTHORITY"],  # https://<gatehouse>/<tenant id>
    client_credential=credential,
    validate_authority=False,
    instance_discovery=False,
)
result = app.acquire_token_for_client(scopes=["api://orders/.default"])
if "access_token" not in result:
    raise SystemExit(json.dumps(result))
payload = result["access_token"].split(".")[1]
print(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)).decode())
