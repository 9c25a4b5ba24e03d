package graphql

import "github.com/stratum-cms/stratum/graphql/gqlschema"

// The plugin's Go API, as custom code and the app use it, lives with the
// schema it customises (gqlschema); it is named here too so that code
// reads graphql.Extension as Strapi's strapi.plugin('graphql') reads.

type (
	Extensions     = gqlschema.Extensions
	Extension      = gqlschema.Extension
	ResolverConfig = gqlschema.ResolverConfig
	Auth           = gqlschema.Auth
	Policy         = gqlschema.Policy
	PolicyFunc     = gqlschema.PolicyFunc
	PolicyContext  = gqlschema.PolicyContext
	Middleware     = gqlschema.Middleware
	MiddlewareFunc = gqlschema.MiddlewareFunc
	ShadowCRUD     = gqlschema.ShadowCRUD
	FieldCRUD      = gqlschema.FieldCRUD

	Accounts      = gqlschema.Accounts
	RegisterInput = gqlschema.RegisterInput
	LoginInput    = gqlschema.LoginInput
	AuthPayload   = gqlschema.AuthPayload
	User          = gqlschema.User
	Role          = gqlschema.Role
)

const (
	ChangePasswordAction = gqlschema.ChangePasswordAction
	MeAction             = gqlschema.MeAction
	ListLocalesAction    = gqlschema.ListLocalesAction
	IntrospectionQuery   = gqlschema.IntrospectionQuery
)

var (
	AuthDisabled     = gqlschema.AuthDisabled
	NewExtensions    = gqlschema.NewExtensions
	UsersPermissions = gqlschema.UsersPermissions
	Principal        = gqlschema.Principal
	HTTPRequest      = gqlschema.HTTPRequest
	AttributeValue   = gqlschema.AttributeValue
	DocumentID       = gqlschema.DocumentID
	FindDocuments    = gqlschema.FindDocuments
	FindDocument     = gqlschema.FindDocument
	PrintSDL         = gqlschema.PrintSDL
	TypeName         = gqlschema.TypeName
	ComponentName    = gqlschema.ComponentName
)
