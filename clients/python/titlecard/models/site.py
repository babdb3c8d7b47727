from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.site_budget import SiteBudget
    from ..models.site_verification import SiteVerification


T = TypeVar("T", bound="Site")


@_attrs_define
class Site:
    """
    Attributes:
        id (str):
        origin (str):
        name (str):
        preset (str):
        keep_query (bool):
        description (bool):
        budget (SiteBudget): New cards the link may make, and what it made (docs/sites.md).
        verified (bool):
        verified_at (datetime.datetime | None):
        created_at (datetime.datetime): ISO 8601 UTC timestamp
        verification (SiteVerification): How to prove the origin is yours: either one, then POST /sites/{id}/verify.
        link (str): The site link without its page: add the page URL, percent-encoded, after url=.
        snippet (str): The tag for every page: replace PAGE_URL with the page URL in the theme.
    """

    id: str
    origin: str
    name: str
    preset: str
    keep_query: bool
    description: bool
    budget: SiteBudget
    verified: bool
    verified_at: datetime.datetime | None
    created_at: datetime.datetime
    verification: SiteVerification
    link: str
    snippet: str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        origin = self.origin

        name = self.name

        preset = self.preset

        keep_query = self.keep_query

        description = self.description

        budget = self.budget.to_dict()

        verified = self.verified

        verified_at: None | str
        if isinstance(self.verified_at, datetime.datetime):
            verified_at = self.verified_at.isoformat()
        else:
            verified_at = self.verified_at

        created_at = self.created_at.isoformat()

        verification = self.verification.to_dict()

        link = self.link

        snippet = self.snippet

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "origin": origin,
                "name": name,
                "preset": preset,
                "keepQuery": keep_query,
                "description": description,
                "budget": budget,
                "verified": verified,
                "verifiedAt": verified_at,
                "createdAt": created_at,
                "verification": verification,
                "link": link,
                "snippet": snippet,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.site_budget import SiteBudget
        from ..models.site_verification import SiteVerification

        d = dict(src_dict)
        id = d.pop("id")

        origin = d.pop("origin")

        name = d.pop("name")

        preset = d.pop("preset")

        keep_query = d.pop("keepQuery")

        description = d.pop("description")

        budget = SiteBudget.from_dict(d.pop("budget"))

        verified = d.pop("verified")

        def _parse_verified_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                verified_at_type_0 = datetime.datetime.fromisoformat(data)

                return verified_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        verified_at = _parse_verified_at(d.pop("verifiedAt"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        verification = SiteVerification.from_dict(d.pop("verification"))

        link = d.pop("link")

        snippet = d.pop("snippet")

        site = cls(
            id=id,
            origin=origin,
            name=name,
            preset=preset,
            keep_query=keep_query,
            description=description,
            budget=budget,
            verified=verified,
            verified_at=verified_at,
            created_at=created_at,
            verification=verification,
            link=link,
            snippet=snippet,
        )

        return site
