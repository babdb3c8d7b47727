"""Contains all the data models used in inputs/outputs"""

from .asset import Asset
from .asset_format import AssetFormat
from .asset_kind import AssetKind
from .audit_page import AuditPage
from .audit_page_entries_item import AuditPageEntriesItem
from .audit_page_entries_item_actor_type_0 import AuditPageEntriesItemActorType0
from .audit_page_entries_item_details import AuditPageEntriesItemDetails
from .audit_page_pagination import AuditPagePagination
from .auth_error_body import AuthErrorBody
from .batch import Batch
from .batch_detail import BatchDetail
from .batch_detail_items_item import BatchDetailItemsItem
from .batch_detail_items_item_error_type_0 import BatchDetailItemsItemErrorType0
from .batch_detail_items_item_image_type_0 import BatchDetailItemsItemImageType0
from .batch_detail_items_item_status import BatchDetailItemsItemStatus
from .batch_detail_status import BatchDetailStatus
from .batch_request import BatchRequest
from .batch_request_items_item import BatchRequestItemsItem
from .batch_status import BatchStatus
from .billing_view import BillingView
from .billing_view_interval_type_0 import BillingViewIntervalType0
from .billing_view_plans import BillingViewPlans
from .billing_view_plans_agency import BillingViewPlansAgency
from .billing_view_plans_agency_month import BillingViewPlansAgencyMonth
from .billing_view_plans_agency_year import BillingViewPlansAgencyYear
from .billing_view_plans_pro import BillingViewPlansPro
from .billing_view_plans_pro_month import BillingViewPlansProMonth
from .billing_view_plans_pro_year import BillingViewPlansProYear
from .billing_view_seats import BillingViewSeats
from .billing_view_tier import BillingViewTier
from .cancel_batch_response_200 import CancelBatchResponse200
from .check_layout_body import CheckLayoutBody
from .check_layout_body_aspect import CheckLayoutBodyAspect
from .check_layout_body_color_mode import CheckLayoutBodyColorMode
from .check_layout_body_fields import CheckLayoutBodyFields
from .check_layout_body_file_format import CheckLayoutBodyFileFormat
from .check_layout_body_focus_type_0 import CheckLayoutBodyFocusType0
from .check_layout_body_focus_type_1 import CheckLayoutBodyFocusType1
from .check_layout_body_font_type_0 import CheckLayoutBodyFontType0
from .check_layout_body_font_type_1 import CheckLayoutBodyFontType1
from .check_layout_body_font_type_1_system import CheckLayoutBodyFontType1System
from .check_layout_body_font_type_2 import CheckLayoutBodyFontType2
from .check_layout_body_position_type_0 import CheckLayoutBodyPositionType0
from .check_layout_body_position_type_1 import CheckLayoutBodyPositionType1
from .check_layout_body_template_name import CheckLayoutBodyTemplateName
from .check_layout_response_200 import CheckLayoutResponse200
from .check_link_preview_response_201 import CheckLinkPreviewResponse201
from .checkout_request import CheckoutRequest
from .checkout_request_interval import CheckoutRequestInterval
from .checkout_request_tier import CheckoutRequestTier
from .create_batch_files_body import CreateBatchFilesBody
from .create_batch_response_202 import CreateBatchResponse202
from .create_checkout_response_200 import CreateCheckoutResponse200
from .create_checkout_response_200_data import CreateCheckoutResponse200Data
from .create_invitation_response_201 import CreateInvitationResponse201
from .create_portal_session_response_200 import CreatePortalSessionResponse200
from .create_portal_session_response_200_data import CreatePortalSessionResponse200Data
from .create_preset_response_201 import CreatePresetResponse201
from .create_render_url_response_200 import CreateRenderUrlResponse200
from .create_signing_key_request import CreateSigningKeyRequest
from .create_signing_key_response_201 import CreateSigningKeyResponse201
from .create_site_response_201 import CreateSiteResponse201
from .create_template_response_201 import CreateTemplateResponse201
from .create_token_request import CreateTokenRequest
from .create_token_request_scopes_item import CreateTokenRequestScopesItem
from .create_token_response_200 import CreateTokenResponse200
from .create_token_response_201 import CreateTokenResponse201
from .create_webhook_response_200 import CreateWebhookResponse200
from .create_webhook_response_201 import CreateWebhookResponse201
from .create_workspace_request import CreateWorkspaceRequest
from .create_workspace_response_201 import CreateWorkspaceResponse201
from .created_batch import CreatedBatch
from .created_batch_status import CreatedBatchStatus
from .created_signing_key import CreatedSigningKey
from .created_token import CreatedToken
from .created_token_scopes_item import CreatedTokenScopesItem
from .created_webhook import CreatedWebhook
from .delete_asset_response_200 import DeleteAssetResponse200
from .delete_font_response_200 import DeleteFontResponse200
from .delete_image_response_200 import DeleteImageResponse200
from .delete_preset_response_200 import DeletePresetResponse200
from .delete_site_response_200 import DeleteSiteResponse200
from .delete_template_response_200 import DeleteTemplateResponse200
from .delete_webhook_response_200 import DeleteWebhookResponse200
from .delete_workspace_response_200 import DeleteWorkspaceResponse200
from .endpoint_error_body import EndpointErrorBody
from .endpoint_error_body_error import EndpointErrorBodyError
from .file_too_large_body import FileTooLargeBody
from .file_too_large_body_error import FileTooLargeBodyError
from .generate_image_body import GenerateImageBody
from .generate_image_body_aspect import GenerateImageBodyAspect
from .generate_image_body_color_mode import GenerateImageBodyColorMode
from .generate_image_body_fields import GenerateImageBodyFields
from .generate_image_body_file_format import GenerateImageBodyFileFormat
from .generate_image_body_focus_type_0 import GenerateImageBodyFocusType0
from .generate_image_body_focus_type_1 import GenerateImageBodyFocusType1
from .generate_image_body_font_type_0 import GenerateImageBodyFontType0
from .generate_image_body_font_type_1 import GenerateImageBodyFontType1
from .generate_image_body_font_type_1_system import GenerateImageBodyFontType1System
from .generate_image_body_font_type_2 import GenerateImageBodyFontType2
from .generate_image_body_position_type_0 import GenerateImageBodyPositionType0
from .generate_image_body_position_type_1 import GenerateImageBodyPositionType1
from .generate_image_body_template_name import GenerateImageBodyTemplateName
from .generate_image_response_201 import GenerateImageResponse201
from .get_batch_response_200 import GetBatchResponse200
from .get_billing_response_200 import GetBillingResponse200
from .get_image_response_200 import GetImageResponse200
from .get_link_preview_mockup_platform import GetLinkPreviewMockupPlatform
from .get_link_preview_response_200 import GetLinkPreviewResponse200
from .get_open_api_response_200 import GetOpenApiResponse200
from .get_preset_response_200 import GetPresetResponse200
from .get_site_response_200 import GetSiteResponse200
from .get_template_response_200 import GetTemplateResponse200
from .get_usage_response_200 import GetUsageResponse200
from .get_workspace_response_200 import GetWorkspaceResponse200
from .image_detail import ImageDetail
from .image_detail_format import ImageDetailFormat
from .image_page import ImagePage
from .image_page_images_item import ImagePageImagesItem
from .image_page_pagination import ImagePagePagination
from .image_record import ImageRecord
from .invitation import Invitation
from .invitation_request import InvitationRequest
from .invitation_request_role import InvitationRequestRole
from .invitation_role import InvitationRole
from .layout_report import LayoutReport
from .layout_report_layers_item import LayoutReportLayersItem
from .layout_report_lines import LayoutReportLines
from .layout_report_template_type_0_type_0 import LayoutReportTemplateType0Type0
from .list_assets_response_200 import ListAssetsResponse200
from .list_assets_response_200_data import ListAssetsResponse200Data
from .list_audit_entries_response_200 import ListAuditEntriesResponse200
from .list_batches_response_200 import ListBatchesResponse200
from .list_batches_response_200_data import ListBatchesResponse200Data
from .list_fonts_response_200 import ListFontsResponse200
from .list_fonts_response_200_data import ListFontsResponse200Data
from .list_images_order import ListImagesOrder
from .list_images_response_200 import ListImagesResponse200
from .list_images_sort import ListImagesSort
from .list_invitations_response_200 import ListInvitationsResponse200
from .list_invitations_response_200_data import ListInvitationsResponse200Data
from .list_members_response_200 import ListMembersResponse200
from .list_members_response_200_data import ListMembersResponse200Data
from .list_presets_response_200 import ListPresetsResponse200
from .list_presets_response_200_data import ListPresetsResponse200Data
from .list_signing_keys_response_200 import ListSigningKeysResponse200
from .list_signing_keys_response_200_data import ListSigningKeysResponse200Data
from .list_site_fetches_response_200 import ListSiteFetchesResponse200
from .list_site_fetches_response_200_data import ListSiteFetchesResponse200Data
from .list_site_pages_response_200 import ListSitePagesResponse200
from .list_site_pages_response_200_data import ListSitePagesResponse200Data
from .list_sites_response_200 import ListSitesResponse200
from .list_sites_response_200_data import ListSitesResponse200Data
from .list_templates_response_200 import ListTemplatesResponse200
from .list_templates_response_200_data import ListTemplatesResponse200Data
from .list_tokens_response_200 import ListTokensResponse200
from .list_tokens_response_200_data import ListTokensResponse200Data
from .list_webhook_deliveries_response_200 import ListWebhookDeliveriesResponse200
from .list_webhook_deliveries_response_200_data import (
    ListWebhookDeliveriesResponse200Data,
)
from .list_webhooks_response_200 import ListWebhooksResponse200
from .list_webhooks_response_200_data import ListWebhooksResponse200Data
from .list_workspaces_response_200 import ListWorkspacesResponse200
from .list_workspaces_response_200_data import ListWorkspacesResponse200Data
from .member import Member
from .member_role import MemberRole
from .member_update_request import MemberUpdateRequest
from .member_update_request_role import MemberUpdateRequestRole
from .page_fetches import PageFetches
from .page_fetches_platforms_item import PageFetchesPlatformsItem
from .preset import Preset
from .preset_logo_type_0 import PresetLogoType0
from .preset_options import PresetOptions
from .preset_request import PresetRequest
from .preset_request_aspect import PresetRequestAspect
from .preset_request_color_mode import PresetRequestColorMode
from .preset_request_fields import PresetRequestFields
from .preset_request_file_format import PresetRequestFileFormat
from .preset_request_focus_type_0 import PresetRequestFocusType0
from .preset_request_focus_type_1 import PresetRequestFocusType1
from .preset_request_font_type_0 import PresetRequestFontType0
from .preset_request_font_type_1 import PresetRequestFontType1
from .preset_request_font_type_1_system import PresetRequestFontType1System
from .preset_request_font_type_2 import PresetRequestFontType2
from .preset_request_logo_type_0 import PresetRequestLogoType0
from .preset_request_logo_type_0_corner import PresetRequestLogoType0Corner
from .preset_request_position_type_0 import PresetRequestPositionType0
from .preset_request_position_type_1 import PresetRequestPositionType1
from .preset_request_template_name import PresetRequestTemplateName
from .preview_report import PreviewReport
from .preview_report_images_item import PreviewReportImagesItem
from .preview_report_page import PreviewReportPage
from .preview_report_platforms_item import PreviewReportPlatformsItem
from .preview_report_platforms_item_card import PreviewReportPlatformsItemCard
from .preview_report_platforms_item_image_type_0 import (
    PreviewReportPlatformsItemImageType0,
)
from .preview_report_platforms_item_image_type_0_crop import (
    PreviewReportPlatformsItemImageType0Crop,
)
from .preview_report_platforms_item_platform import PreviewReportPlatformsItemPlatform
from .preview_report_platforms_item_problems_item import (
    PreviewReportPlatformsItemProblemsItem,
)
from .preview_report_problems_item import PreviewReportProblemsItem
from .preview_report_problems_item_code import PreviewReportProblemsItemCode
from .preview_report_problems_item_platforms_item import (
    PreviewReportProblemsItemPlatformsItem,
)
from .preview_report_problems_item_severity import PreviewReportProblemsItemSeverity
from .preview_report_tags_type_0 import PreviewReportTagsType0
from .preview_report_tags_type_0_meta import PreviewReportTagsType0Meta
from .preview_request import PreviewRequest
from .quota_error_body import QuotaErrorBody
from .receive_billing_event_body import ReceiveBillingEventBody
from .receive_billing_event_response_200 import ReceiveBillingEventResponse200
from .receive_billing_event_response_200_data import ReceiveBillingEventResponse200Data
from .remove_member_response_200 import RemoveMemberResponse200
from .render_url import RenderUrl
from .render_url_request import RenderUrlRequest
from .render_url_request_fields import RenderUrlRequestFields
from .render_url_request_format import RenderUrlRequestFormat
from .replace_preset_response_200 import ReplacePresetResponse200
from .replace_template_response_200 import ReplaceTemplateResponse200
from .revoke_signing_key_response_200 import RevokeSigningKeyResponse200
from .revoke_token_response_200 import RevokeTokenResponse200
from .send_webhook_test_response_202 import SendWebhookTestResponse202
from .set_site_budget_response_200 import SetSiteBudgetResponse200
from .signing_key import SigningKey
from .site import Site
from .site_budget import SiteBudget
from .site_budget_request import SiteBudgetRequest
from .site_page import SitePage
from .site_request import SiteRequest
from .site_verification import SiteVerification
from .template import Template
from .template_document import TemplateDocument
from .template_document_aspect import TemplateDocumentAspect
from .template_document_gradient_layer import TemplateDocumentGradientLayer
from .template_document_gradient_layer_direction import (
    TemplateDocumentGradientLayerDirection,
)
from .template_document_image_layer import TemplateDocumentImageLayer
from .template_document_image_layer_box import TemplateDocumentImageLayerBox
from .template_document_image_layer_fit import TemplateDocumentImageLayerFit
from .template_document_logo_layer import TemplateDocumentLogoLayer
from .template_document_logo_layer_box import TemplateDocumentLogoLayerBox
from .template_document_rect_layer import TemplateDocumentRectLayer
from .template_document_rect_layer_box import TemplateDocumentRectLayerBox
from .template_document_size import TemplateDocumentSize
from .template_document_text_layer import TemplateDocumentTextLayer
from .template_document_text_layer_align import TemplateDocumentTextLayerAlign
from .template_document_text_layer_anchor import TemplateDocumentTextLayerAnchor
from .template_document_text_layer_below import TemplateDocumentTextLayerBelow
from .template_document_text_layer_below_weight import (
    TemplateDocumentTextLayerBelowWeight,
)
from .template_document_text_layer_box import TemplateDocumentTextLayerBox
from .template_document_text_layer_font_size_type_1 import (
    TemplateDocumentTextLayerFontSizeType1,
)
from .template_document_text_layer_font_type_0 import TemplateDocumentTextLayerFontType0
from .template_document_text_layer_font_type_1 import TemplateDocumentTextLayerFontType1
from .template_document_text_layer_font_type_1_system import (
    TemplateDocumentTextLayerFontType1System,
)
from .template_document_text_layer_font_type_2 import TemplateDocumentTextLayerFontType2
from .template_document_text_layer_vertical_align import (
    TemplateDocumentTextLayerVerticalAlign,
)
from .template_document_text_layer_weight import TemplateDocumentTextLayerWeight
from .template_document_variables import TemplateDocumentVariables
from .template_document_variables_image_variable import (
    TemplateDocumentVariablesImageVariable,
)
from .template_document_variables_text_variable import (
    TemplateDocumentVariablesTextVariable,
)
from .token_list_entry import TokenListEntry
from .token_list_entry_scopes_type_0_item import TokenListEntryScopesType0Item
from .token_validation import TokenValidation
from .token_validation_usage import TokenValidationUsage
from .token_validation_user import TokenValidationUser
from .token_validation_user_tier import TokenValidationUserTier
from .token_validation_workspace import TokenValidationWorkspace
from .token_validation_workspace_role import TokenValidationWorkspaceRole
from .token_validation_workspace_scopes_item import TokenValidationWorkspaceScopesItem
from .update_member_response_200 import UpdateMemberResponse200
from .update_workspace_request import UpdateWorkspaceRequest
from .update_workspace_response_200 import UpdateWorkspaceResponse200
from .upload_asset_body import UploadAssetBody
from .upload_asset_body_kind import UploadAssetBodyKind
from .upload_asset_response_201 import UploadAssetResponse201
from .upload_font_body import UploadFontBody
from .upload_font_response_201 import UploadFontResponse201
from .usage import Usage
from .usage_period import UsagePeriod
from .usage_tier import UsageTier
from .usage_usage import UsageUsage
from .validate_token_response_200 import ValidateTokenResponse200
from .validation_error_body import ValidationErrorBody
from .validation_error_body_error import ValidationErrorBodyError
from .validation_error_body_error_details import ValidationErrorBodyErrorDetails
from .validation_error_body_error_details_constraint import (
    ValidationErrorBodyErrorDetailsConstraint,
)
from .verify_site_response_200 import VerifySiteResponse200
from .webhook_delivery import WebhookDelivery
from .webhook_delivery_status import WebhookDeliveryStatus
from .webhook_endpoint import WebhookEndpoint
from .webhook_request import WebhookRequest
from .withdraw_invitation_response_200 import WithdrawInvitationResponse200
from .workspace import Workspace
from .workspace_role import WorkspaceRole
from .workspace_seats import WorkspaceSeats
from .workspace_tier import WorkspaceTier

__all__ = (
    "Asset",
    "AssetFormat",
    "AssetKind",
    "AuditPage",
    "AuditPageEntriesItem",
    "AuditPageEntriesItemActorType0",
    "AuditPageEntriesItemDetails",
    "AuditPagePagination",
    "AuthErrorBody",
    "Batch",
    "BatchDetail",
    "BatchDetailItemsItem",
    "BatchDetailItemsItemErrorType0",
    "BatchDetailItemsItemImageType0",
    "BatchDetailItemsItemStatus",
    "BatchDetailStatus",
    "BatchRequest",
    "BatchRequestItemsItem",
    "BatchStatus",
    "BillingView",
    "BillingViewIntervalType0",
    "BillingViewPlans",
    "BillingViewPlansAgency",
    "BillingViewPlansAgencyMonth",
    "BillingViewPlansAgencyYear",
    "BillingViewPlansPro",
    "BillingViewPlansProMonth",
    "BillingViewPlansProYear",
    "BillingViewSeats",
    "BillingViewTier",
    "CancelBatchResponse200",
    "CheckLayoutBody",
    "CheckLayoutBodyAspect",
    "CheckLayoutBodyColorMode",
    "CheckLayoutBodyFields",
    "CheckLayoutBodyFileFormat",
    "CheckLayoutBodyFocusType0",
    "CheckLayoutBodyFocusType1",
    "CheckLayoutBodyFontType0",
    "CheckLayoutBodyFontType1",
    "CheckLayoutBodyFontType1System",
    "CheckLayoutBodyFontType2",
    "CheckLayoutBodyPositionType0",
    "CheckLayoutBodyPositionType1",
    "CheckLayoutBodyTemplateName",
    "CheckLayoutResponse200",
    "CheckLinkPreviewResponse201",
    "CheckoutRequest",
    "CheckoutRequestInterval",
    "CheckoutRequestTier",
    "CreateBatchFilesBody",
    "CreateBatchResponse202",
    "CreateCheckoutResponse200",
    "CreateCheckoutResponse200Data",
    "CreateInvitationResponse201",
    "CreatePortalSessionResponse200",
    "CreatePortalSessionResponse200Data",
    "CreatePresetResponse201",
    "CreateRenderUrlResponse200",
    "CreateSigningKeyRequest",
    "CreateSigningKeyResponse201",
    "CreateSiteResponse201",
    "CreateTemplateResponse201",
    "CreateTokenRequest",
    "CreateTokenRequestScopesItem",
    "CreateTokenResponse200",
    "CreateTokenResponse201",
    "CreateWebhookResponse200",
    "CreateWebhookResponse201",
    "CreateWorkspaceRequest",
    "CreateWorkspaceResponse201",
    "CreatedBatch",
    "CreatedBatchStatus",
    "CreatedSigningKey",
    "CreatedToken",
    "CreatedTokenScopesItem",
    "CreatedWebhook",
    "DeleteAssetResponse200",
    "DeleteFontResponse200",
    "DeleteImageResponse200",
    "DeletePresetResponse200",
    "DeleteSiteResponse200",
    "DeleteTemplateResponse200",
    "DeleteWebhookResponse200",
    "DeleteWorkspaceResponse200",
    "EndpointErrorBody",
    "EndpointErrorBodyError",
    "FileTooLargeBody",
    "FileTooLargeBodyError",
    "GenerateImageBody",
    "GenerateImageBodyAspect",
    "GenerateImageBodyColorMode",
    "GenerateImageBodyFields",
    "GenerateImageBodyFileFormat",
    "GenerateImageBodyFocusType0",
    "GenerateImageBodyFocusType1",
    "GenerateImageBodyFontType0",
    "GenerateImageBodyFontType1",
    "GenerateImageBodyFontType1System",
    "GenerateImageBodyFontType2",
    "GenerateImageBodyPositionType0",
    "GenerateImageBodyPositionType1",
    "GenerateImageBodyTemplateName",
    "GenerateImageResponse201",
    "GetBatchResponse200",
    "GetBillingResponse200",
    "GetImageResponse200",
    "GetLinkPreviewMockupPlatform",
    "GetLinkPreviewResponse200",
    "GetOpenApiResponse200",
    "GetPresetResponse200",
    "GetSiteResponse200",
    "GetTemplateResponse200",
    "GetUsageResponse200",
    "GetWorkspaceResponse200",
    "ImageDetail",
    "ImageDetailFormat",
    "ImagePage",
    "ImagePageImagesItem",
    "ImagePagePagination",
    "ImageRecord",
    "Invitation",
    "InvitationRequest",
    "InvitationRequestRole",
    "InvitationRole",
    "LayoutReport",
    "LayoutReportLayersItem",
    "LayoutReportLines",
    "LayoutReportTemplateType0Type0",
    "ListAssetsResponse200",
    "ListAssetsResponse200Data",
    "ListAuditEntriesResponse200",
    "ListBatchesResponse200",
    "ListBatchesResponse200Data",
    "ListFontsResponse200",
    "ListFontsResponse200Data",
    "ListImagesOrder",
    "ListImagesResponse200",
    "ListImagesSort",
    "ListInvitationsResponse200",
    "ListInvitationsResponse200Data",
    "ListMembersResponse200",
    "ListMembersResponse200Data",
    "ListPresetsResponse200",
    "ListPresetsResponse200Data",
    "ListSigningKeysResponse200",
    "ListSigningKeysResponse200Data",
    "ListSiteFetchesResponse200",
    "ListSiteFetchesResponse200Data",
    "ListSitePagesResponse200",
    "ListSitePagesResponse200Data",
    "ListSitesResponse200",
    "ListSitesResponse200Data",
    "ListTemplatesResponse200",
    "ListTemplatesResponse200Data",
    "ListTokensResponse200",
    "ListTokensResponse200Data",
    "ListWebhookDeliveriesResponse200",
    "ListWebhookDeliveriesResponse200Data",
    "ListWebhooksResponse200",
    "ListWebhooksResponse200Data",
    "ListWorkspacesResponse200",
    "ListWorkspacesResponse200Data",
    "Member",
    "MemberRole",
    "MemberUpdateRequest",
    "MemberUpdateRequestRole",
    "PageFetches",
    "PageFetchesPlatformsItem",
    "Preset",
    "PresetLogoType0",
    "PresetOptions",
    "PresetRequest",
    "PresetRequestAspect",
    "PresetRequestColorMode",
    "PresetRequestFields",
    "PresetRequestFileFormat",
    "PresetRequestFocusType0",
    "PresetRequestFocusType1",
    "PresetRequestFontType0",
    "PresetRequestFontType1",
    "PresetRequestFontType1System",
    "PresetRequestFontType2",
    "PresetRequestLogoType0",
    "PresetRequestLogoType0Corner",
    "PresetRequestPositionType0",
    "PresetRequestPositionType1",
    "PresetRequestTemplateName",
    "PreviewReport",
    "PreviewReportImagesItem",
    "PreviewReportPage",
    "PreviewReportPlatformsItem",
    "PreviewReportPlatformsItemCard",
    "PreviewReportPlatformsItemImageType0",
    "PreviewReportPlatformsItemImageType0Crop",
    "PreviewReportPlatformsItemPlatform",
    "PreviewReportPlatformsItemProblemsItem",
    "PreviewReportProblemsItem",
    "PreviewReportProblemsItemCode",
    "PreviewReportProblemsItemPlatformsItem",
    "PreviewReportProblemsItemSeverity",
    "PreviewReportTagsType0",
    "PreviewReportTagsType0Meta",
    "PreviewRequest",
    "QuotaErrorBody",
    "ReceiveBillingEventBody",
    "ReceiveBillingEventResponse200",
    "ReceiveBillingEventResponse200Data",
    "RemoveMemberResponse200",
    "RenderUrl",
    "RenderUrlRequest",
    "RenderUrlRequestFields",
    "RenderUrlRequestFormat",
    "ReplacePresetResponse200",
    "ReplaceTemplateResponse200",
    "RevokeSigningKeyResponse200",
    "RevokeTokenResponse200",
    "SendWebhookTestResponse202",
    "SetSiteBudgetResponse200",
    "SigningKey",
    "Site",
    "SiteBudget",
    "SiteBudgetRequest",
    "SitePage",
    "SiteRequest",
    "SiteVerification",
    "Template",
    "TemplateDocument",
    "TemplateDocumentAspect",
    "TemplateDocumentGradientLayer",
    "TemplateDocumentGradientLayerDirection",
    "TemplateDocumentImageLayer",
    "TemplateDocumentImageLayerBox",
    "TemplateDocumentImageLayerFit",
    "TemplateDocumentLogoLayer",
    "TemplateDocumentLogoLayerBox",
    "TemplateDocumentRectLayer",
    "TemplateDocumentRectLayerBox",
    "TemplateDocumentSize",
    "TemplateDocumentTextLayer",
    "TemplateDocumentTextLayerAlign",
    "TemplateDocumentTextLayerAnchor",
    "TemplateDocumentTextLayerBelow",
    "TemplateDocumentTextLayerBelowWeight",
    "TemplateDocumentTextLayerBox",
    "TemplateDocumentTextLayerFontSizeType1",
    "TemplateDocumentTextLayerFontType0",
    "TemplateDocumentTextLayerFontType1",
    "TemplateDocumentTextLayerFontType1System",
    "TemplateDocumentTextLayerFontType2",
    "TemplateDocumentTextLayerVerticalAlign",
    "TemplateDocumentTextLayerWeight",
    "TemplateDocumentVariables",
    "TemplateDocumentVariablesImageVariable",
    "TemplateDocumentVariablesTextVariable",
    "TokenListEntry",
    "TokenListEntryScopesType0Item",
    "TokenValidation",
    "TokenValidationUsage",
    "TokenValidationUser",
    "TokenValidationUserTier",
    "TokenValidationWorkspace",
    "TokenValidationWorkspaceRole",
    "TokenValidationWorkspaceScopesItem",
    "UpdateMemberResponse200",
    "UpdateWorkspaceRequest",
    "UpdateWorkspaceResponse200",
    "UploadAssetBody",
    "UploadAssetBodyKind",
    "UploadAssetResponse201",
    "UploadFontBody",
    "UploadFontResponse201",
    "Usage",
    "UsagePeriod",
    "UsageTier",
    "UsageUsage",
    "ValidateTokenResponse200",
    "ValidationErrorBody",
    "ValidationErrorBodyError",
    "ValidationErrorBodyErrorDetails",
    "ValidationErrorBodyErrorDetailsConstraint",
    "VerifySiteResponse200",
    "WebhookDelivery",
    "WebhookDeliveryStatus",
    "WebhookEndpoint",
    "WebhookRequest",
    "WithdrawInvitationResponse200",
    "Workspace",
    "WorkspaceRole",
    "WorkspaceSeats",
    "WorkspaceTier",
)
