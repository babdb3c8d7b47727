from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.template_document_variables_additional_property_type_0 import (
        TemplateDocumentVariablesAdditionalPropertyType0,
    )
    from ..models.template_document_variables_additional_property_type_1 import (
        TemplateDocumentVariablesAdditionalPropertyType1,
    )


T = TypeVar("T", bound="TemplateDocumentVariables")


@_attrs_define
class TemplateDocumentVariables:
    """Variables filled by `fields`; title and subtitle always exist."""

    additional_properties: dict[
        str,
        TemplateDocumentVariablesAdditionalPropertyType0
        | TemplateDocumentVariablesAdditionalPropertyType1,
    ] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.template_document_variables_additional_property_type_0 import (
            TemplateDocumentVariablesAdditionalPropertyType0,
        )

        field_dict: dict[str, Any] = {}
        for prop_name, prop in self.additional_properties.items():
            if isinstance(prop, TemplateDocumentVariablesAdditionalPropertyType0):
                field_dict[prop_name] = prop.to_dict()
            else:
                field_dict[prop_name] = prop.to_dict()

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.template_document_variables_additional_property_type_0 import (
            TemplateDocumentVariablesAdditionalPropertyType0,
        )
        from ..models.template_document_variables_additional_property_type_1 import (
            TemplateDocumentVariablesAdditionalPropertyType1,
        )

        d = dict(src_dict)
        template_document_variables = cls()

        additional_properties = {}
        for prop_name, prop_dict in d.items():

            def _parse_additional_property(
                data: object,
            ) -> (
                TemplateDocumentVariablesAdditionalPropertyType0
                | TemplateDocumentVariablesAdditionalPropertyType1
            ):
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    additional_property_type_0 = (
                        TemplateDocumentVariablesAdditionalPropertyType0.from_dict(data)
                    )

                    return additional_property_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                additional_property_type_1 = (
                    TemplateDocumentVariablesAdditionalPropertyType1.from_dict(data)
                )

                return additional_property_type_1

            additional_property = _parse_additional_property(prop_dict)

            additional_properties[prop_name] = additional_property

        template_document_variables.additional_properties = additional_properties
        return template_document_variables

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(
        self, key: str
    ) -> (
        TemplateDocumentVariablesAdditionalPropertyType0
        | TemplateDocumentVariablesAdditionalPropertyType1
    ):
        return self.additional_properties[key]

    def __setitem__(
        self,
        key: str,
        value: TemplateDocumentVariablesAdditionalPropertyType0
        | TemplateDocumentVariablesAdditionalPropertyType1,
    ) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
