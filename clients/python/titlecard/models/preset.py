from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.preset_logo_type_0 import PresetLogoType0
    from ..models.preset_options import PresetOptions


T = TypeVar("T", bound="Preset")


@_attrs_define
class Preset:
    """
    Attributes:
        id (str):
        name (str):
        version (int): 1 at creation, one more on every edit.
        options (PresetOptions): The generate options it sets, as given.
        background (None | str):
        logo (None | PresetLogoType0):
        created_at (datetime.datetime): ISO 8601 UTC timestamp
        updated_at (datetime.datetime): ISO 8601 UTC timestamp
    """

    id: str
    name: str
    version: int
    options: PresetOptions
    background: None | str
    logo: None | PresetLogoType0
    created_at: datetime.datetime
    updated_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        from ..models.preset_logo_type_0 import PresetLogoType0

        id = self.id

        name = self.name

        version = self.version

        options = self.options.to_dict()

        background: None | str
        background = self.background

        logo: dict[str, Any] | None
        if isinstance(self.logo, PresetLogoType0):
            logo = self.logo.to_dict()
        else:
            logo = self.logo

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "version": version,
                "options": options,
                "background": background,
                "logo": logo,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.preset_logo_type_0 import PresetLogoType0
        from ..models.preset_options import PresetOptions

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        version = d.pop("version")

        options = PresetOptions.from_dict(d.pop("options"))

        def _parse_background(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        background = _parse_background(d.pop("background"))

        def _parse_logo(data: object) -> None | PresetLogoType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                logo_type_0 = PresetLogoType0.from_dict(data)

                return logo_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PresetLogoType0, data)

        logo = _parse_logo(d.pop("logo"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        preset = cls(
            id=id,
            name=name,
            version=version,
            options=options,
            background=background,
            logo=logo,
            created_at=created_at,
            updated_at=updated_at,
        )

        return preset
